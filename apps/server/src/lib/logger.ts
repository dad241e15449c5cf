import { spaRoutes } from '@upnext/contract/routes';
import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/** Paths whose next segment is a credential: a status link's key (its API and its page). */
const credentialInPath = [
  /^(\/api\/visits\/)[^/?#]+/,
  new RegExp(`^(${spaRoutes.visit.replace(':key', '')})[^/?#]+`),
];

/**
 * A request's URL as logged: the path without the credentials some paths carry, and the names
 * of its query parameters, never their values (a token, a code, an email or a search can be
 * personal or a credential).
 */
export function redactUrl(url: string): string {
  const redacted = credentialInPath.reduce((out, path) => out.replace(path, '$1[redacted]'), url);
  const queryStart = redacted.indexOf('?');
  if (queryStart === -1) return redacted;
  const params = new URLSearchParams(redacted.slice(queryStart + 1));
  const names = [...new Set(params.keys())];
  return `${redacted.slice(0, queryStart)}?${names.map((name) => `${encodeURIComponent(name)}=[redacted]`).join('&')}`;
}

/**
 * Errors as logged: type, message, stack, code and the database's constraint or table, and
 * their causes, but never a failed query's bound parameters (Drizzle puts them in the message:
 * a password hash, an email, a token), neither where the database quotes one back (a bad value
 * in its message) nor its `detail` (which quotes the values of a violated key).
 */
function errorForLog(error: unknown): LoggedError {
  const params =
    error instanceof Error && 'params' in error && Array.isArray(error.params) ? error.params : [];
  const secrets = params
    .map((value) => (value instanceof Date ? '' : String(value ?? '')))
    .filter((value) => value.length >= 4)
    .sort((a, b) => b.length - a.length);
  const scrub = (text: string) =>
    secrets.reduce((out, secret) => out.replaceAll(secret, '[redacted]'), text);
  return describe(error, scrub, 0);
}

type LoggedError = { type: string; message: string; stack: string; [field: string]: unknown };

function describe(error: unknown, scrub: (text: string) => string, depth: number): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '[redacted]', stack: '' };
  const failedQuery = 'query' in error && 'params' in error && typeof error.query === 'string';
  const message = scrub(failedQuery ? `Failed query: ${error.query}` : error.message);
  const fields: LoggedError = {
    type: error.constructor.name,
    message,
    stack: scrub((error.stack ?? '').replace(error.message, message)),
  };
  for (const key of ['code', 'constraint', 'table', 'column', 'routine', 'statusCode'] as const) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  if (error.cause !== undefined && depth < 5) {
    fields.cause = describe(error.cause, scrub, depth + 1);
  }
  return fields;
}

export function loggerOptions(config: Pick<Config, 'logLevel' | 'env'>) {
  return {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers.apikey',
        'res.headers["set-cookie"]',
        '*.password',
        '*.access_token',
        '*.refresh_token',
      ],
      censor: '[redacted]',
    },
    serializers: {
      err: (error: unknown) => errorForLog(error),
      req: (request: { method: string; url: string; ip?: string; id?: string }) => ({
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip,
      }),
    },
  } satisfies FastifyServerOptions['logger'];
}
