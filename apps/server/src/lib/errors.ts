/**
 * One error type for the whole API. `code` is a stable snake_case string clients may branch
 * on; the HTTP status comes from one table so that a code always means the same status.
 */
const statusByCode = {
  validation_failed: 400,
  bad_request: 400,
  invalid_phone: 400,
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
  invitation_not_found: 404,
  join_request_not_needed: 409,
  in_use: 409,
  // Sessions.
  session_overlap: 409,
  invalid_transition: 409,
  session_not_editable: 409,
  session_has_tokens: 409,
  service_exists: 409,
  // Reports.
  invalid_period: 400,
  request_timeout: 408,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  headers_too_large: 431,
  too_many_requests: 429,
  internal_error: 500,
  database_unavailable: 503,
  not_ready: 503,
  // Tokens and bookings (modules/tokens): stable codes clients branch on.
  session_not_found: 404,
  slot_not_found: 404,
  token_not_found: 404,
  session_closed: 409,
  session_not_open: 409,
  session_full: 409,
  token_limit_reached: 409,
  walk_in_not_allowed: 409,
  booking_not_allowed: 409,
  slot_full: 409,
  slot_blocked: 409,
  slot_in_past: 409,
  invalid_token_transition: 409,
  token_called_by_other: 409,
  idempotency_key_reused: 409,
  /** A visitor past the queue's `changeCutoffMinutes` before their booking's slot. */
  change_window_closed: 409,
  // A token's status link (issue 16).
  visit_not_found: 404,
  visit_ended: 410,
  // Meetings (modules/meetings).
  meeting_not_found: 404,
  meeting_not_live: 409,
  meeting_in_progress: 409,
  video_not_offered: 409,
  token_not_in_service: 409,
  visitor_not_reachable: 409,
  // Payments (modules/payments).
  payment_not_found: 404,
  checkout_not_found: 404,
  checkout_closed: 409,
  payment_not_required: 409,
  payment_hold_expired: 409,
  payment_not_refundable: 409,
  refund_failed: 502,
  promotion_invalid: 409,
  plan_already_active: 409,
  no_paid_plan: 409,
  payments_unavailable: 503,
  webhook_invalid: 400,
  invalid_card_number: 400,
  invalid_expiry: 400,
  invalid_cvc: 400,
  invalid_name: 400,
  card_declined: 402,
  confirmation_invalid: 400,
  // Company plans (modules/billing): past a plan's limit; `details: { resource, limit, plan, used }`.
  // 409 like the other "not now" refusals (session_full): the request was fine, the plan is not.
  plan_limit_reached: 409,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof statusByCode;

export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly details: unknown;
  /** Sent as Retry-After: when asking again can succeed (a 429 or 503). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    details?: unknown,
    options: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.code = code;
    this.details = details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get status(): number {
    return statusByCode[this.code];
  }
}

export function statusOf(code: ErrorCode): number {
  return statusByCode[code];
}
