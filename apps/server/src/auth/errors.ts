import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { refusalOf } from '../db/refusals.ts';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable.ts';
import { requestLanguage } from '../http/language.ts';
import { authErrorMessage } from '../lib/error-messages.ts';

/**
 * An error answered the way GoTrue answers it: a status, one of GoTrue's error code strings
 * (auth-js branches on them) and GoTrue's wording. `extra` adds fields such as
 * `weak_password`.
 */
export class AuthError extends Error {
  override name = 'AuthError';
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, unknown> | undefined;
  /** Sent as Retry-After with a 429: when asking again can succeed. */
  retryAfterSeconds: number | undefined;

  constructor(status: number, code: string, message: string, extra?: Record<string, unknown>) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

/** The error, telling the caller when to ask again. */
export function withRetryAfter(error: AuthError, seconds: number): AuthError {
  error.retryAfterSeconds = seconds;
  return error;
}

const API_VERSION = '2024-01-01';
const API_VERSION_DATE = Date.parse(`${API_VERSION}T00:00:00Z`);

/** GoTrue picks the error shape from the request's X-Supabase-Api-Version header. */
function wantsVersionedErrors(request: FastifyRequest): boolean {
  const header = request.headers['x-supabase-api-version'];
  if (typeof header !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(header)) return false;
  const date = Date.parse(`${header}T00:00:00Z`);
  return Number.isFinite(date) && date >= API_VERSION_DATE;
}

export function sendAuthError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: AuthError,
): FastifyReply {
  const errorId = error.status >= 500 ? request.id : undefined;
  reply
    .code(error.status)
    .header('x-sb-error-code', error.code)
    .header('cache-control', 'no-store');
  if (error.retryAfterSeconds !== undefined) {
    reply.header('retry-after', String(error.retryAfterSeconds));
  }
  const message = authErrorMessage(error.code, error.message, requestLanguage(request));
  if (wantsVersionedErrors(request)) {
    reply.header('x-supabase-api-version', API_VERSION);
    return reply.send({ code: error.code, message, ...error.extra });
  }
  return reply.send({
    code: error.status,
    error_code: error.code,
    msg: message,
    ...(errorId ? { error_id: errorId } : {}),
    ...error.extra,
  });
}

/** Maps anything thrown inside /auth/v1 to a GoTrue-shaped answer; 5xx hides internals. */
export function authErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof AuthError) {
    if (error.status >= 500) request.log.error({ err: error }, error.message);
    return sendAuthError(request, reply, error);
  }
  if (error.validation) {
    const where = error.validationContext ?? 'body';
    const first = error.validation[0];
    const field = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') ?? '';
    const detail = first ? `${[where, field].filter(Boolean).join('.')}: ${first.message}` : '';
    return sendAuthError(
      request,
      reply,
      new AuthError(400, 'validation_failed', `Invalid request. ${detail}`.trim()),
    );
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return sendAuthError(
        request,
        reply,
        new AuthError(400, 'bad_json', 'Could not parse request body as JSON'),
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return sendAuthError(
        request,
        reply,
        new AuthError(415, 'validation_failed', 'Send the request body as application/json'),
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return sendAuthError(
        request,
        reply,
        new AuthError(413, 'request_too_large', 'Request body too large'),
      );
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return sendAuthError(request, reply, new AuthError(status, 'bad_request', error.message));
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'auth: database unavailable');
    reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    return sendAuthError(
      request,
      reply,
      new AuthError(503, 'database_unavailable', 'Service briefly unavailable, please retry'),
    );
  }
  // The last resort for values the body rules missed (logged, to be bounded there).
  const refusal = refusalOf(error);
  if (refusal) {
    request.log.warn({ err: error }, 'auth: database refused the request values');
    return sendAuthError(
      request,
      reply,
      refusal === 'conflict'
        ? new AuthError(409, 'conflict', 'The change conflicts with data stored meanwhile')
        : errors.validation('Invalid request: a value cannot be stored'),
    );
  }
  request.log.error({ err: error }, 'unhandled auth error');
  return sendAuthError(
    request,
    reply,
    new AuthError(500, 'unexpected_failure', 'Unexpected failure, please check server logs'),
  );
}

// Errors used in several places, with GoTrue's codes and wording.
export const errors = {
  invalidCredentials: () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials'),
  otpExpired: () => new AuthError(403, 'otp_expired', 'Token has expired or is invalid'),
  noAuthorization: () =>
    new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  badJwt: (why: string) => new AuthError(403, 'bad_jwt', `invalid JWT: ${why}`),
  sessionNotFound: () =>
    new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  userNotFound: () =>
    new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist'),
  userBanned: (status = 400) => new AuthError(status, 'user_banned', 'User is banned'),
  validation: (message: string) => new AuthError(400, 'validation_failed', message),
  rateLimited: () => new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached'),
  emailFrequency: (seconds: number) =>
    withRetryAfter(
      new AuthError(
        429,
        'over_email_send_rate_limit',
        `For security purposes, you can only request this after ${seconds} seconds.`,
      ),
      seconds,
    ),
  emailQuota: () => new AuthError(429, 'over_email_send_rate_limit', 'Email rate limit exceeded'),
  smsFrequency: (seconds: number) =>
    withRetryAfter(
      new AuthError(
        429,
        'over_sms_send_rate_limit',
        `For security purposes, you can only request this after ${seconds} seconds.`,
      ),
      seconds,
    ),
  smsQuota: () => new AuthError(429, 'over_sms_send_rate_limit', 'SMS rate limit exceeded'),
  phoneDisabled: () =>
    new AuthError(422, 'phone_provider_disabled', 'Phone logins are not enabled yet'),
};
