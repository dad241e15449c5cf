import { z } from 'zod';
import { int4ParamSchema, int4Schema, phoneInputSchema, textSchema } from './common.ts';
import { endpoint, signedInErrors } from './endpoint.ts';
import { intakeAnswerInputSchema, intakeAnswerSchema } from './intake.ts';
import { lightPaths } from './light-paths.ts';
import { tokenPaymentSchema } from './payments.ts';
import { sessionStatusSchema } from './sessions.ts';

export const tokenStatuses = [
  'pending_payment',
  'booked',
  'waiting',
  'called',
  'serving',
  'served',
  'no_show',
  'cancelled',
] as const;
export const tokenStatusSchema = z.enum(tokenStatuses);
export const tokenKinds = ['walk_in', 'booking'] as const;
export type TokenStatus = z.infer<typeof tokenStatusSchema>;
/** Statuses from which a token may still be cancelled (by its holder or by staff). */
export const cancellableTokenStatuses: readonly TokenStatus[] = [
  'pending_payment',
  'booked',
  'waiting',
  'called',
];

/**
 * A booking joins the live line (and may be called) from this many minutes before its slot
 * starts; until then it keeps its place by slot time and its estimate is the slot's start.
 */
export const BOOKING_LIVE_WINDOW_MINUTES = 10;

/** Header of `POST .../tokens` and `.../slots/tokens`: one value per attempt to take a place. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

const visitorFields = {
  /** Staff issuing for a walk-in without an account give the visitor's name (and phone). */
  visitorName: textSchema(100, { min: 1 }).optional(),
  /** National numbers are read in the company's country and stored in E.164 (phone.ts). */
  visitorPhone: phoneInputSchema.optional(),
  visitorEmail: z.email().max(254).optional(),
  /** Staff only: served before everyone of lower priority. */
  priority: int4Schema.min(0).max(9).optional(),
  notes: textSchema(500, { multiline: true }).optional(),
  /** Answers to the queue's intake questions (checked against them: `validation_failed`). */
  answers: intakeAnswerInputSchema.optional(),
};

export const takeTokenInputSchema = z
  .object({ sessionId: z.uuid(), ...visitorFields })
  .meta({ id: 'TakeTokenInput' });
export type TakeTokenInput = z.infer<typeof takeTokenInputSchema>;

export const bookSlotInputSchema = z
  .object({
    /** The session service (the spec's `serviceId`). */
    serviceId: z.uuid(),
    slotNo: int4Schema.min(1),
    ...visitorFields,
  })
  .meta({ id: 'BookSlotInput' });
export type BookSlotInput = z.infer<typeof bookSlotInputSchema>;

export const tokenSchema = z
  .object({
    id: z.uuid(),
    sessionId: z.uuid(),
    queueId: z.uuid(),
    number: z.int(),
    displayNumber: z.string(),
    kind: z.enum(tokenKinds),
    status: tokenStatusSchema,
    serviceId: z.uuid().nullable(),
    slotNo: z.int().nullable(),
    slotStartsAt: z.iso.datetime({ offset: true }).nullable(),
    visitorName: z.string(),
    /** Only for the holder and the company's staff. */
    visitorEmail: z.string().nullable(),
    visitorPhone: z.string().nullable(),
    priority: z.int(),
    notes: z.string(),
    joinedAt: z.iso.datetime({ offset: true }),
    calledAt: z.iso.datetime({ offset: true }).nullable(),
    /** Staff only: the user who called (or took over) the token; null for visitors. */
    calledBy: z.uuid().nullable(),
    /** The caller is the staff member who called the token: "my current token". */
    calledByMe: z.boolean(),
    completedAt: z.iso.datetime({ offset: true }).nullable(),
    cancelledAt: z.iso.datetime({ offset: true }).nullable(),
    cancelReason: z.string().nullable(),
    serviceSeconds: z.int().nullable(),
    /** 1 = next to be called; null unless waiting. */
    position: z.int().nullable(),
    estimatedWaitMinutes: z.int().nullable(),
    /** The session's status and its notes for visitors, so the holder sees a pause at once. */
    sessionStatus: sessionStatusSchema,
    sessionNotes: z.string(),
    /**
     * A paid visit's payment (the latest one of the token): while `pending_payment`, the hold's
     * end and the open checkout; once paid, the refund's state. Null in a free queue.
     */
    payment: tokenPaymentSchema.nullable(),
    /**
     * The token's status link (visits.ts): live status without signing in, for its holder and
     * the company's staff (on the printed ticket, in the token's email and SMS).
     */
    statusUrl: z.string(),
    /** Whose token it is and where: never unlabelled beside another company's. */
    companyName: z.string(),
    queueName: z.string(),
    /** The counter, desk or room a called visitor goes to; null when the session names none. */
    counter: z.string().nullable(),
    /** The answers to the queue's intake questions given on taking the place; only for the holder and staff. */
    answers: z.array(intakeAnswerSchema),
    /**
     * Until when its holder may cancel or reschedule this booking themselves (the queue's
     * `changeCutoffMinutes` before the slot); null for walk-ins.
     */
    changeUntil: z.iso.datetime({ offset: true }).nullable(),
  })
  .meta({ id: 'QueueToken' });
export type QueueToken = z.infer<typeof tokenSchema>;

export const tokensQueryInputSchema = z
  .object({
    sessionId: z.uuid().optional(),
    statuses: z.array(tokenStatusSchema).min(1).max(8).optional(),
    kind: z.enum(tokenKinds).optional(),
    /** The caller's own tokens (across sessions when no sessionId is given). */
    mine: z.boolean().optional(),
  })
  .refine((input) => input.mine === true || input.sessionId !== undefined, {
    message: 'Give a sessionId, or mine: true.',
    path: ['sessionId'],
  })
  .meta({ id: 'TokensQuery' });
export type TokensQueryInput = z.infer<typeof tokensQueryInputSchema>;

export const cancelTokenInputSchema = z
  .object({ tokenId: z.uuid(), reason: textSchema(200, { multiline: true }).optional() })
  .meta({ id: 'CancelTokenInput' });

export const rescheduleInputSchema = z
  .object({
    tokenId: z.uuid(),
    /** The session service and slot to move to: any of the booking's queue. */
    serviceId: z.uuid(),
    slotNo: int4Schema.min(1),
  })
  .meta({ id: 'RescheduleInput' });
export type RescheduleInput = z.infer<typeof rescheduleInputSchema>;

export const nextTokenInputSchema = z
  .object({ sessionId: z.uuid() })
  .meta({ id: 'NextTokenInput' });

export const nextTokenResultSchema = z
  .object({
    /** The token this staff member was serving, now served (null if none). */
    completed: tokenSchema.nullable(),
    /** The token now called, or null when nobody is waiting. */
    called: tokenSchema.nullable(),
  })
  .meta({ id: 'NextTokenResult' });

/**
 * `start` and `complete` need the token to be called by the caller; `take-over` makes the
 * caller its staff member (another's called or serving token, e.g. from a second desk).
 */
export const tokenActions = [
  'recall',
  'no-show',
  'requeue',
  'start',
  'complete',
  'take-over',
] as const;
export const tokenActionSchema = z.enum(tokenActions);
export type TokenAction = z.infer<typeof tokenActionSchema>;

export const serviceTimeInputSchema = z
  .object({ tokenId: z.uuid(), seconds: int4Schema.min(0).max(86_400) })
  .meta({ id: 'ServiceTimeInput' });

export const serviceTimeQueryInputSchema = z
  .object({
    queueId: z.uuid().optional(),
    sessionId: z.uuid().optional(),
    from: z.iso.date().optional(),
    to: z.iso.date().optional(),
  })
  .refine((input) => input.queueId !== undefined || input.sessionId !== undefined, {
    message: 'Give a queueId or a sessionId.',
    path: ['queueId'],
  })
  .meta({ id: 'ServiceTimeQuery' });

const distribution = z.object({
  average: z.number().nullable(),
  median: z.number().nullable(),
  p90: z.number().nullable(),
});

export const serviceTimeStatsSchema = z
  .object({
    /** Served tokens the figures come from. */
    tokens: z.int(),
    serviceSeconds: distribution,
    waitSeconds: distribution,
  })
  .meta({ id: 'ServiceTimeStats' });
export type ServiceTimeStats = z.infer<typeof serviceTimeStatsSchema>;

export const bookingDetailsSchema = z
  .object({
    token: tokenSchema,
    companyName: z.string(),
    queueName: z.string(),
    serviceName: z.string(),
    timezone: z.string(),
    date: z.iso.date(),
    startTime: z.string(),
    endTime: z.string(),
    /** An iCalendar (RFC 5545) event for the booking. */
    calendar: z.string(),
  })
  .meta({ id: 'BookingDetails' });

/** A call on a display board: the token, where to go (the counter), and when. */
const boardCallSchema = z
  .object({
    label: z.string(),
    /** The session's counter, desk or practitioner (its sub-queue); null without one. */
    counter: z.string().nullable(),
    calledAt: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'BoardCall' });
export type BoardCall = z.infer<typeof boardCallSchema>;

/** The public state of a session, for display boards: no personal data. */
export const sessionBoardSchema = z
  .object({
    sessionId: z.uuid(),
    companyName: z.string(),
    /** The company's country: national phone numbers given at its desks are read in it. */
    country: z.string(),
    /** The queue: its branch board shows this session beside the others of the day. */
    queueId: z.uuid(),
    queueName: z.string(),
    /** The queue's join code: the board's "scan to join" QR code carries its join link. */
    joinCode: z.string(),
    /** The session's counter, desk or practitioner (its sub-queue), if it has one. */
    counter: z.string().nullable(),
    status: sessionStatusSchema,
    /** The session's notes for visitors ("Running 15 minutes late"); never staff notes. */
    notes: z.string(),
    /** The token called last, where to go, and when it was called. */
    nowServing: z.string().nullable(),
    nowServingCounter: z.string().nullable(),
    nowServingAt: z.iso.datetime({ offset: true }).nullable(),
    /** Calls before it, newest first (at most 5). */
    recentlyCalled: z.array(boardCallSchema),
    waiting: z.int(),
    averageServiceSeconds: z.int(),
  })
  .meta({ id: 'SessionBoard' });
export type SessionBoard = z.infer<typeof sessionBoardSchema>;

/** The most sessions a branch board shows: a day's counters of one queue. */
export const QUEUE_BOARD_MAX_SESSIONS = 24;

/** A branch board: every session of a queue today that is not over, each as its own board. */
export const queueBoardSchema = z
  .object({
    queueId: z.uuid(),
    queueName: z.string(),
    companyName: z.string(),
    joinCode: z.string(),
    /** Today's sessions (in each session's time zone), scheduled, open or paused, by start. */
    sessions: z.array(sessionBoardSchema).max(QUEUE_BOARD_MAX_SESSIONS),
  })
  .meta({ id: 'QueueBoard' });
export type QueueBoard = z.infer<typeof queueBoardSchema>;

/** One key per attempt to take a place: a repeat of the request answers the same token. */
const idempotencyHeaders = z.object({
  [IDEMPOTENCY_KEY_HEADER]: textSchema(200, { min: 1 }).optional(),
});
const staffErrors = [...signedInErrors, 'session_not_found', 'token_not_found'] as const;
const sessionIdParams = z.object({ sessionId: z.uuid() });

export const tokenEndpoints = {
  takeToken: endpoint({
    method: 'POST',
    path: '/queues/sessions/tokens',
    tag: 'tokens',
    summary: 'Take a walk-in token (staff may issue one for a visitor without an account)',
    description:
      'An Idempotency-Key header (one per attempt) makes a repeat answer the same token. ' +
      'token_limit_reached carries details.tokenIds: the live ones held.',
    headers: idempotencyHeaders,
    body: takeTokenInputSchema,
    responses: { 201: tokenSchema },
    errors: [
      ...signedInErrors,
      'invalid_phone',
      'session_not_found',
      'session_closed',
      'session_full',
      'token_limit_reached',
      'plan_limit_reached',
      'walk_in_not_allowed',
      'idempotency_key_reused',
    ],
  }),
  bookSlot: endpoint({
    method: 'POST',
    path: '/queues/sessions/slots/tokens',
    tag: 'tokens',
    summary: 'Book a slot of a session service',
    description:
      'An Idempotency-Key header (one per attempt) makes a repeat answer the same booking.',
    headers: idempotencyHeaders,
    body: bookSlotInputSchema,
    responses: { 201: tokenSchema },
    errors: [
      ...signedInErrors,
      'invalid_phone',
      'slot_not_found',
      'slot_blocked',
      'slot_in_past',
      'slot_full',
      'session_full',
      'token_limit_reached',
      'plan_limit_reached',
      'booking_not_allowed',
      'session_closed',
      'idempotency_key_reused',
    ],
  }),
  queryTokens: endpoint({
    method: 'POST',
    path: '/queues/sessions/tokens-query',
    tag: 'tokens',
    summary: "A session's tokens (staff) or the caller's own, with positions and waits",
    body: tokensQueryInputSchema,
    responses: { 200: z.array(tokenSchema) },
    errors: [...signedInErrors, 'session_not_found'],
  }),
  queryBookings: endpoint({
    method: 'POST',
    path: '/queues/sessions/slots/tokens-query',
    tag: 'tokens',
    summary: "Bookings: a session's (staff) or the caller's own",
    body: tokensQueryInputSchema,
    responses: { 200: z.array(tokenSchema) },
    errors: [...signedInErrors, 'session_not_found'],
  }),
  slotTokens: endpoint({
    method: 'GET',
    path: '/queues/sessions/:sessionId/slots/:slotNo/tokens',
    tag: 'tokens',
    summary: 'The bookings of one slot (staff)',
    params: z.object({ sessionId: z.uuid(), slotNo: int4ParamSchema.min(1) }),
    responses: { 200: z.array(tokenSchema) },
    errors: [...signedInErrors, 'session_not_found', 'slot_not_found'],
  }),
  bookingDetails: endpoint({
    method: 'GET',
    path: '/queues/sessions/slots/booking-details',
    tag: 'tokens',
    summary: 'A booking with its calendar file; format=ics downloads the .ics itself',
    query: z.object({
      tokenId: z.uuid(),
      format: z.enum(['json', 'ics']).default('json'),
    }),
    responses: { 200: bookingDetailsSchema },
    errors: [...signedInErrors, 'token_not_found'],
  }),
  cancelToken: endpoint({
    method: 'POST',
    path: '/queues/sessions/tokens-cancel',
    tag: 'tokens',
    summary: 'Cancel a token or booking (its holder, or staff); a booked slot frees up',
    body: cancelTokenInputSchema,
    responses: { 200: tokenSchema },
    errors: [
      ...signedInErrors,
      'token_not_found',
      'invalid_token_transition',
      'change_window_closed',
    ],
  }),
  cancelBooking: endpoint({
    method: 'POST',
    path: '/queues/sessions/slots/tokens-cancel',
    tag: 'tokens',
    summary: 'Cancel a token or booking (its holder, or staff); a booked slot frees up',
    body: cancelTokenInputSchema,
    responses: { 200: tokenSchema },
    errors: [
      ...signedInErrors,
      'token_not_found',
      'invalid_token_transition',
      'change_window_closed',
    ],
  }),
  rescheduleBooking: endpoint({
    method: 'POST',
    path: '/queues/sessions/slots/tokens-reschedule',
    tag: 'tokens',
    summary: 'Move a booking to another free slot of its queue (its holder, or staff)',
    description:
      'Keeps the token (its id and status link); in another session it takes that ' +
      "session's next number. Asking again for the slot it holds answers it unchanged. Its " +
      "holder is refused with change_window_closed past the queue's changeCutoffMinutes.",
    body: rescheduleInputSchema,
    responses: { 200: tokenSchema },
    errors: [
      ...signedInErrors,
      'token_not_found',
      'invalid_token_transition',
      'change_window_closed',
      'slot_not_found',
      'slot_blocked',
      'slot_in_past',
      'slot_full',
      'session_closed',
      'session_full',
      'token_limit_reached',
      'conflict',
    ],
  }),
  sessionBoard: endpoint({
    method: 'GET',
    path: lightPaths.sessionBoard,
    tag: 'tokens',
    summary: 'The public state of a session for display boards (no personal data)',
    params: sessionIdParams,
    responses: { 200: sessionBoardSchema },
    errors: ['validation_failed', 'unauthorized', 'forbidden', 'session_not_found'],
  }),
  queueBoard: endpoint({
    method: 'GET',
    path: lightPaths.queueBoard,
    tag: 'tokens',
    summary: 'A branch board: every session of a queue today, each as its board (no personal data)',
    description:
      'Scheduled, open and paused sessions of the queue dated today in their time zone, by ' +
      'start time (at most QUEUE_BOARD_MAX_SESSIONS), to whoever may see the queue; each ' +
      "session's board is live on its /topic/session/{sessionId}. Hidden queues are not_found.",
    params: z.object({ queueId: z.uuid() }),
    responses: { 200: queueBoardSchema },
    errors: ['validation_failed', 'unauthorized', 'forbidden', 'not_found'],
  }),
  nextToken: endpoint({
    method: 'POST',
    path: '/queues/sessions/next-token',
    tag: 'tokens',
    summary: 'Complete the token being served and call the next one (staff)',
    description:
      'Order: priority, then bookings whose slot starts within BOOKING_LIVE_WINDOW_MINUTES ' +
      '(or has started), then number; later bookings wait.',
    body: nextTokenInputSchema,
    responses: { 200: nextTokenResultSchema },
    errors: [...signedInErrors, 'session_not_found', 'session_not_open'],
  }),
  actOnToken: endpoint({
    method: 'POST',
    path: '/queues/sessions/tokens/:tokenId/:action',
    tag: 'tokens',
    summary:
      'Recall, no-show, requeue, start serving, complete or take over a called token (staff)',
    description:
      'start and complete need the token called by the caller (else token_called_by_other); ' +
      'take-over makes it theirs. invalid_token_transition names the current status.',
    params: z.object({ tokenId: z.uuid(), action: tokenActionSchema }),
    responses: { 200: tokenSchema },
    errors: [...staffErrors, 'invalid_token_transition', 'token_called_by_other'],
  }),
  recordServiceTime: endpoint({
    method: 'POST',
    path: '/queues/sessions/service-time',
    tag: 'tokens',
    summary: 'Record how long a served token took (staff)',
    body: serviceTimeInputSchema,
    responses: { 200: tokenSchema },
    errors: [...staffErrors, 'invalid_token_transition'],
  }),
  serviceTimeQuery: endpoint({
    method: 'POST',
    path: '/queues/sessions/service-time-query',
    tag: 'tokens',
    summary: 'Average, median and 90th percentile of service and wait times (staff)',
    body: serviceTimeQueryInputSchema,
    responses: { 200: serviceTimeStatsSchema },
    errors: [...signedInErrors, 'session_not_found', 'not_found'],
  }),
};
