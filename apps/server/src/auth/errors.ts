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

/** The one wording of a request that breaks its schema (GoTrue's validation_failed). */
export function invalidRequest(field: string, problem: string): AuthError {
  return errors.validation(`Invalid request: ${field ? `${field}: ` : ''}${problem}`);
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
    const first = error.validation[0];
    const field = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') ?? '';
    return sendAuthError(request, reply, invalidRequest(field, first?.message ?? 'invalid'));
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return sendAuthError(request, reply, errors.badJson());
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return sendAuthError(request, reply, errors.notJson());
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return sendAuthError(request, reply, errors.tooLarge());
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return sendAuthError(request, reply, errors.badRequest(status, error.message));
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'auth: database unavailable');
    reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    return sendAuthError(request, reply, errors.databaseUnavailable());
  }
  // The last resort for values the body rules missed (logged, to be bounded there).
  const refusal = refusalOf(error);
  if (refusal) {
    request.log.warn({ err: error }, 'auth: database refused the request values');
    return sendAuthError(
      request,
      reply,
      refusal === 'conflict'
        ? errors.conflict()
        : errors.validation('Invalid request: a value cannot be stored'),
    );
  }
  request.log.error({ err: error }, 'unhandled auth error');
  return sendAuthError(request, reply, errors.unexpected());
}

/**
 * Every refusal of /auth/v1, with GoTrue's status, code and wording: the one place where a
 * status is chosen. Services throw `errors.<name>(...)`; `new AuthError` appears nowhere else
 * (scripts/check-boundaries.mjs). Where GoTrue answers one code with different statuses on
 * different endpoints, each has its own row.
 */
export const errors = {
  // Requests
  validation: (message: string) => new AuthError(400, 'validation_failed', message),
  invalidEmail: () => errors.validation('Unable to validate email address: invalid format'),
  badJson: () => new AuthError(400, 'bad_json', 'Could not parse request body as JSON'),
  notJson: () =>
    new AuthError(415, 'validation_failed', 'Send the request body as application/json'),
  tooLarge: () => new AuthError(413, 'request_too_large', 'Request body too large'),
  badRequest: (status: number, message: string) => new AuthError(status, 'bad_request', message),
  notFound: () => new AuthError(404, 'not_found', 'Not Found'),
  conflict: () => new AuthError(409, 'conflict', 'The change conflicts with data stored meanwhile'),
  databaseUnavailable: () =>
    new AuthError(503, 'database_unavailable', 'Service briefly unavailable, please retry'),
  unexpected: () =>
    new AuthError(500, 'unexpected_failure', 'Unexpected failure, please check server logs'),

  // Rate limits
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

  // Credentials, tokens and sessions
  invalidCredentials: (message = 'Invalid login credentials') =>
    new AuthError(400, 'invalid_credentials', message),
  otpExpired: () => new AuthError(403, 'otp_expired', 'Token has expired or is invalid'),
  noAuthorization: () =>
    new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  anonymousNotAllowed: () =>
    new AuthError(403, 'no_authorization', 'Anonymous user not allowed to perform these actions'),
  badJwt: (why: string) => new AuthError(403, 'bad_jwt', `invalid JWT: ${why}`),
  sessionNotFound: () =>
    new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  sessionIdMissing: () =>
    new AuthError(403, 'session_not_found', 'MFA requires a session_id claim in the JWT'),
  userNotFound: () =>
    new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist'),
  userBanned: (status = 400) => new AuthError(status, 'user_banned', 'User is banned'),
  refreshTokenNotFound: () =>
    new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found'),
  sessionExpired: () =>
    new AuthError(400, 'session_expired', 'Invalid Refresh Token: Session Expired'),
  refreshTokenAlreadyUsed: () =>
    new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
  flowStateNotFound: () =>
    new AuthError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found'),
  flowStateExpired: () =>
    new AuthError(422, 'flow_state_expired', 'invalid flow state, flow state has expired'),
  badCodeVerifier: () =>
    new AuthError(
      400,
      'bad_code_verifier',
      'code challenge does not match previously saved code verifier',
    ),
  reauthenticationNotValid: () =>
    new AuthError(422, 'reauthentication_not_valid', 'Nonce has expired or is invalid'),
  reauthenticationNeeded: () =>
    new AuthError(400, 'reauthentication_needed', 'Password update requires reauthentication'),
  /** The password and OTP grants: a sign-in with an address not yet confirmed. */
  emailNotConfirmed: () => new AuthError(400, 'email_not_confirmed', 'Email not confirmed'),
  phoneNotConfirmed: () => new AuthError(400, 'phone_not_confirmed', 'Phone not confirmed'),
  /** A passkey sign-in of an account whose address is not confirmed. */
  passkeyEmailNotConfirmed: () => new AuthError(403, 'email_not_confirmed', 'Email not confirmed'),
  passkeyPhoneNotConfirmed: () => new AuthError(403, 'phone_not_confirmed', 'Phone not confirmed'),
  /** GET /reauthenticate before the address it would send to is confirmed. */
  reauthenticateEmailNotConfirmed: () =>
    new AuthError(422, 'email_not_confirmed', 'Please verify your email first.'),
  reauthenticatePhoneNotConfirmed: () =>
    new AuthError(422, 'phone_not_confirmed', 'Please verify your phone first.'),

  // Passwords
  passwordTooLong: (max: number) =>
    new AuthError(400, 'validation_failed', `Password cannot be longer than ${max} characters`),
  weakPassword: (message: string, reasons: string[]) =>
    new AuthError(422, 'weak_password', message, { weak_password: { reasons } }),
  samePassword: () =>
    new AuthError(422, 'same_password', 'New password should be different from the old password.'),

  // Accounts and sign-ups
  signupDisabled: () =>
    new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance'),
  otpSignupDisabled: () => new AuthError(422, 'otp_disabled', 'Signups not allowed for otp'),
  anonymousDisabled: () =>
    new AuthError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled'),
  userAlreadyExists: () => new AuthError(422, 'user_already_exists', 'User already registered'),
  emailExists: () =>
    new AuthError(
      422,
      'email_exists',
      'A user with this email address has already been registered',
    ),
  phoneExists: () =>
    new AuthError(422, 'phone_exists', 'A user with this phone number has already been registered'),
  notAdmin: () => new AuthError(403, 'not_admin', 'User not allowed'),
  adminUserNotFound: () => new AuthError(404, 'user_not_found', 'User not found'),

  // Providers and features
  phoneDisabled: () =>
    new AuthError(422, 'phone_provider_disabled', 'Phone logins are not enabled yet'),
  phoneProviderUnsupported: () =>
    new AuthError(422, 'phone_provider_disabled', 'Unsupported phone provider'),
  smsSendFailed: (transient: boolean) =>
    new AuthError(
      transient ? 500 : 400,
      'sms_send_failed',
      'Error sending SMS: the message could not be delivered',
    ),
  providerDisabled: (message = 'Unsupported provider: provider is not enabled') =>
    new AuthError(400, 'provider_disabled', message),
  providerUnavailable: (label: string) =>
    new AuthError(503, 'unexpected_failure', `The ${label} sign-in is unavailable right now`),
  web3Disabled: () => new AuthError(422, 'web3_provider_disabled', 'Web3 provider is disabled'),
  samlDisabled: () => new AuthError(404, 'saml_provider_disabled', 'SAML 2.0 is disabled'),

  // Identities
  identityAlreadyExists: () =>
    new AuthError(422, 'identity_already_exists', 'Identity is already linked to another user'),
  identityNotFound: () => new AuthError(422, 'identity_not_found', "Identity doesn't exist"),
  lastIdentity: () =>
    new AuthError(
      422,
      'single_identity_not_deletable',
      'User must have at least 1 identity after unlinking',
    ),
  manualLinkingDisabled: () =>
    new AuthError(404, 'manual_linking_disabled', 'Manual linking is disabled'),
  providerEmailExists: () =>
    new AuthError(
      422,
      'email_exists',
      'A user with this email address has already been registered; sign in with it and link this provider, or use a provider that has verified the address',
    ),

  // Multi-factor authentication
  insufficientAal: (message: string, status = 422) =>
    new AuthError(status, 'insufficient_aal', message),
  factorNotFound: () => new AuthError(404, 'mfa_factor_not_found', 'Factor not found'),
  mfaPhoneEnrollDisabled: () =>
    new AuthError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone'),
  mfaPhoneVerifyDisabled: () =>
    new AuthError(422, 'mfa_phone_verify_not_enabled', 'MFA verification is disabled for Phone'),
  challengeExpired: (id: string) =>
    new AuthError(
      422,
      'mfa_challenge_expired',
      `MFA challenge ${id} has expired, verify against another challenge or create a new challenge.`,
    ),
  totpCodeWrong: () => new AuthError(422, 'mfa_verification_failed', 'Invalid TOTP code entered'),
  phoneCodeWrong: () =>
    new AuthError(422, 'mfa_verification_failed', 'Invalid MFA Phone code entered'),
  webauthnAnswerWrong: () =>
    new AuthError(422, 'mfa_verification_failed', 'Invalid WebAuthn credential response'),
  tooManyFactors: () =>
    new AuthError(
      422,
      'too_many_enrolled_mfa_factors',
      'Maximum number of verified factors reached, unenroll to continue',
    ),
  verifiedPhoneFactorExists: () =>
    new AuthError(
      422,
      'mfa_verified_factor_exists',
      'A verified phone factor already exists, unenroll the existing factor to continue',
    ),
  factorNameConflict: (name: string) =>
    new AuthError(
      422,
      'mfa_factor_name_conflict',
      `A factor with the friendly name "${name.slice(0, 100)}" for this user already exists`,
    ),
  ipAddressMismatch: () =>
    new AuthError(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.'),

  // Passkeys
  webauthnChallengeNotFound: () =>
    new AuthError(400, 'webauthn_challenge_not_found', 'Challenge not found or already used'),
  webauthnChallengeExpired: () =>
    new AuthError(400, 'webauthn_challenge_expired', 'Challenge has expired'),
  webauthnVerificationFailed: () =>
    new AuthError(400, 'webauthn_verification_failed', 'Credential verification failed'),
  passkeyNotFound: () => new AuthError(404, 'validation_failed', 'Passkey not found'),
  webauthnCredentialExists: () =>
    new AuthError(422, 'webauthn_credential_exists', 'This credential is already registered'),
  tooManyPasskeys: () =>
    new AuthError(422, 'too_many_passkeys', 'Maximum number of passkeys reached'),
};
