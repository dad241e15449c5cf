/**
 * Whether an error means the database cannot be reached or cannot answer now (refused, cut,
 * timed out, shutting down, out of connections), rather than that a query was wrong. Both
 * error handlers (/api and /auth/v1) answer these with 503 `database_unavailable` and
 * `Retry-After`, never a 500; the pool recovers by itself when the database returns.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && (networkCodes.has(code) || unavailableStates(code))) {
      return true;
    }
    if (driverMessages.some((message) => cause instanceof Error && cause.message === message)) {
      return true;
    }
    cause = cause.cause;
  }
  return false;
}

/** Seconds a client is asked to wait before trying again. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is unreachable or overloaded: class 08 (connection exception),
 * 53300 too_many_connections, 57P01-57P03 (shutting down, cannot connect now), 57014 a
 * statement cancelled by `statement_timeout`.
 */
function unavailableStates(code: string): boolean {
  return code.startsWith('08') || ['53300', '57P01', '57P02', '57P03', '57014'].includes(code);
}

/** node-postgres says these in words only. */
const driverMessages = [
  'Connection terminated due to connection timeout',
  'Connection terminated unexpectedly',
  'timeout exceeded when trying to connect',
  'timeout expired',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Connection terminated',
];
