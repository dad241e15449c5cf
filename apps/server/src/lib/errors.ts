/**
 * One error type for the whole API. `code` is a stable snake_case string clients may branch
 * on; the HTTP status comes from one table so that a code always means the same status.
 */
const statusByCode = {
  validation_failed: 400,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  // Provider workspace (companies, members, queues, join requests).
  owner_protected: 403,
  join_request_required: 403,
  last_owner: 409,
  already_member: 409,
  invite_pending: 409,
  join_request_not_needed: 409,
  in_use: 409,
  // Sessions.
  session_overlap: 409,
  invalid_transition: 409,
  session_not_editable: 409,
  session_has_tokens: 409,
  service_exists: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal_error: 500,
  database_unavailable: 503,
  not_ready: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof statusByCode;

export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return statusByCode[this.code];
  }
}

export function statusOf(code: ErrorCode): number {
  return statusByCode[code];
}
