import { z } from 'zod';
import { int4Schema, textSchema } from './common.ts';
import { endpoint, signedInErrors } from './endpoint.ts';

/**
 * Sessions, their services and slots (PRODUCT.md "Provider workspace"; spec §7 paths under /api).
 *
 * Dates (`YYYY-MM-DD`) and times (`HH:MM`) are wall-clock values in the company's time zone
 * (`timezone` on every session); `startsAt`/`endsAt` are the same moments as ISO instants.
 * A session lies within one calendar day: `endTime` is after `startTime`.
 */

export const sessionStatuses = ['scheduled', 'open', 'paused', 'closed', 'cancelled'] as const;
export const sessionStatusSchema = z.enum(sessionStatuses).meta({ id: 'SessionStatus' });
export type SessionStatus = z.infer<typeof sessionStatusSchema>;

/** Which status changes `POST /queues/sessions/status` accepts; anything else is `invalid_transition`. */
export const sessionTransitions: Readonly<Record<SessionStatus, readonly SessionStatus[]>> = {
  scheduled: ['open', 'cancelled'],
  open: ['paused', 'closed', 'cancelled'],
  paused: ['open', 'closed', 'cancelled'],
  closed: [],
  cancelled: [],
};

export const slotStatuses = ['open', 'blocked'] as const;
export const slotStatusSchema = z.enum(slotStatuses).meta({ id: 'SlotStatus' });

export const sessionScopes = ['this', 'following'] as const;
/** `this` session only, or `following`: this one and the later ones of its series. */
export const sessionScopeSchema = z.enum(sessionScopes).meta({ id: 'SessionScope' });
export type SessionScope = z.infer<typeof sessionScopeSchema>;

const isRealDate = (value: string) => {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
};

/** A calendar date, `YYYY-MM-DD`. */
export const localDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the format YYYY-MM-DD')
  .refine(isRealDate, 'Not a real calendar date')
  .meta({ id: 'LocalDate', example: '2026-03-30' });

/** A wall-clock time, `HH:MM` (24-hour). */
export const localTimeSchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use the format HH:MM (00:00 to 23:59)')
  .meta({ id: 'LocalTime', example: '09:00' });

const uuid = z.uuid();
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

export const MAX_SERIES_OCCURRENCES = 366;
export const MAX_SERVICES_PER_SESSION = 20;

/** A service type offered in a session, cut into slots of `slotMinutes`, each holding `capacityPerSlot`. */
export const sessionServiceInputSchema = z
  .object({
    serviceTypeId: uuid,
    slotMinutes: int4Schema.min(1).max(1440),
    /** 0 is allowed: such slots are shown but never bookable. */
    capacityPerSlot: int4Schema.min(0).max(10000),
  })
  .meta({ id: 'NewSessionService' });
export type SessionServiceInput = z.infer<typeof sessionServiceInputSchema>;

/** ISO weekday: 1 = Monday ... 7 = Sunday. */
export const isoWeekdaySchema = int4Schema.min(1).max(7);

export const recurrenceSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('once') }),
    z.object({
      kind: z.literal('weekly'),
      /** ISO weekdays (1 = Monday ... 7 = Sunday) on which a session takes place. */
      weekdays: z
        .array(isoWeekdaySchema)
        .min(1)
        .max(7)
        .refine((days) => new Set(days).size === days.length, 'Each weekday only once'),
      /** Last date (inclusive) of the series, in the company's time zone. */
      until: localDateSchema,
    }),
  ])
  .meta({ id: 'Recurrence' });
export type Recurrence = z.infer<typeof recurrenceSchema>;

const sessionFields = {
  startTime: localTimeSchema,
  endTime: localTimeSchema,
  /** Most tokens the session issues. */
  capacity: int4Schema.min(0).max(100000),
  online: z.boolean(),
  /** Staff only: never shown to visitors. */
  notes: textSchema(2000, { multiline: true }),
  /** Shown to visitors on the join page, their token and the board ("Running late"). */
  visitorNotes: textSchema(500, { multiline: true }),
};

/** `POST /queues/sessions/schedule`. With `preview: true` nothing is saved. */
export const scheduleSessionInputSchema = z
  .object({
    queueId: uuid,
    subQueueId: uuid.nullable().optional(),
    /** The (first) session's date, in the company's time zone. */
    date: localDateSchema,
    ...sessionFields,
    online: sessionFields.online.optional(),
    notes: sessionFields.notes.optional(),
    visitorNotes: sessionFields.visitorNotes.optional(),
    recurrence: recurrenceSchema.optional(),
    /** Dates of the series to leave out (e.g. one that clashes with another session). */
    skipDates: z.array(localDateSchema).max(MAX_SERIES_OCCURRENCES).optional(),
    /** Leave out every date that overlaps another session instead of refusing the series. */
    skipConflicts: z.boolean().optional(),
    services: z.array(sessionServiceInputSchema).max(MAX_SERVICES_PER_SESSION).optional(),
    preview: z.boolean().optional(),
  })
  .superRefine((value, ctx) => {
    if (minutesOf(value.endTime) <= minutesOf(value.startTime)) {
      ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'Must be after the start time' });
    }
    if (value.recurrence?.kind === 'weekly' && value.recurrence.until < value.date) {
      ctx.addIssue({
        code: 'custom',
        path: ['recurrence', 'until'],
        message: 'Must be on or after the first date',
      });
    }
    const types = (value.services ?? []).map((s) => s.serviceTypeId);
    if (new Set(types).size !== types.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['services'],
        message: 'Each service type only once per session',
      });
    }
  })
  .meta({ id: 'ScheduleSessionInput' });
export type ScheduleSessionInput = z.infer<typeof scheduleSessionInputSchema>;

/** An existing session that overlaps a planned or edited one on the same sub-queue. */
export const sessionConflictSchema = z
  .object({
    /** Date of the planned occurrence that collides. */
    plannedDate: localDateSchema,
    sessionId: uuid,
    date: localDateSchema,
    startTime: localTimeSchema,
    endTime: localTimeSchema,
    status: sessionStatusSchema,
    subQueueId: uuid.nullable(),
  })
  .meta({ id: 'SessionConflict' });
export type SessionConflict = z.infer<typeof sessionConflictSchema>;

/**
 * Live figures, counted from the session's token rows by status (one function on the server
 * for every screen). `waiting` is the live line only: not bookings whose slot is not near yet
 * (`booked`), not the tokens called or being served.
 */
export const sessionCountsSchema = z
  .object({
    /** Every token the session issued, whatever became of it. */
    issued: z.number().int(),
    booked: z.number().int(),
    waiting: z.number().int(),
    called: z.number().int(),
    serving: z.number().int(),
    served: z.number().int(),
    noShows: z.number().int(),
    cancelled: z.number().int(),
    /** The number of the token called last that is still called or being served. */
    nowServing: z.number().int().nullable(),
  })
  .meta({ id: 'SessionCounts' });
export type SessionCounts = z.infer<typeof sessionCountsSchema>;

export const sessionSchema = z
  .object({
    id: uuid,
    queueId: uuid,
    queueName: z.string(),
    companyId: uuid,
    subQueueId: uuid.nullable(),
    subQueueName: z.string().nullable(),
    date: localDateSchema,
    startTime: localTimeSchema,
    endTime: localTimeSchema,
    /** The IANA zone `date`, `startTime` and `endTime` are read in (the company's). */
    timezone: z.string(),
    startsAt: z.iso.datetime({ offset: true }),
    endsAt: z.iso.datetime({ offset: true }),
    capacity: z.number().int(),
    status: sessionStatusSchema,
    online: z.boolean(),
    /** Staff notes: empty for callers who are not staff of the company. */
    notes: z.string(),
    visitorNotes: z.string(),
    seriesId: uuid.nullable(),
    counts: sessionCountsSchema,
  })
  .meta({ id: 'Session' });
export type Session = z.infer<typeof sessionSchema>;

/** One session the schedule would create (preview) or created. */
export const plannedSessionSchema = z
  .object({
    date: localDateSchema,
    startTime: localTimeSchema,
    endTime: localTimeSchema,
    startsAt: z.iso.datetime({ offset: true }),
    endsAt: z.iso.datetime({ offset: true }),
    conflicts: z.array(sessionConflictSchema),
    /** Left out by `skipDates` or `skipConflicts`: no session is created on this date. */
    skipped: z.boolean(),
  })
  .meta({ id: 'PlannedSession' });

export const scheduleResultSchema = z
  .object({
    preview: z.boolean(),
    seriesId: uuid.nullable(),
    timezone: z.string(),
    /** Every occurrence, each with its conflicts (a preview shows them before saving). */
    planned: z.array(plannedSessionSchema),
    /** Conflicts of the occurrences that are not skipped: a save with any is refused. */
    conflicts: z.array(sessionConflictSchema),
    /** The created sessions; empty for a preview. */
    sessions: z.array(sessionSchema),
  })
  .meta({ id: 'ScheduleResult' });
export type ScheduleResult = z.infer<typeof scheduleResultSchema>;

/** `POST /queues/sessions/edit`: the fields to change; `date` only with scope `this`. */
export const editSessionInputSchema = z
  .object({
    sessionId: uuid,
    scope: sessionScopeSchema.default('this'),
    changes: z
      .object({
        date: localDateSchema,
        subQueueId: uuid.nullable(),
        ...sessionFields,
      })
      .partial()
      .refine((c) => Object.keys(c).length > 0, 'Name at least one field to change'),
  })
  .superRefine((value, ctx) => {
    const { startTime, endTime, date } = value.changes;
    if (startTime && endTime && minutesOf(endTime) <= minutesOf(startTime)) {
      ctx.addIssue({
        code: 'custom',
        path: ['changes', 'endTime'],
        message: 'Must be after the start time',
      });
    }
    if (date !== undefined && value.scope === 'following') {
      ctx.addIssue({
        code: 'custom',
        path: ['changes', 'date'],
        message: 'A date can only be changed for one session (scope "this")',
      });
    }
  })
  .meta({ id: 'EditSessionInput' });
export type EditSessionInput = z.infer<typeof editSessionInputSchema>;

export const deleteSessionInputSchema = z
  .object({ sessionId: uuid, scope: sessionScopeSchema.default('this') })
  .meta({ id: 'DeleteSessionInput' });
export type DeleteSessionInput = z.infer<typeof deleteSessionInputSchema>;

export const editSessionResultSchema = z
  .object({ sessions: z.array(sessionSchema) })
  .meta({ id: 'EditSessionResult' });
export const deleteSessionResultSchema = z
  .object({ deletedIds: z.array(uuid) })
  .meta({ id: 'DeleteSessionResult' });

export const sessionStatusInputSchema = z
  .object({ sessionId: uuid, status: sessionStatusSchema })
  .meta({ id: 'SessionStatusChange' });
export type SessionStatusInput = z.infer<typeof sessionStatusInputSchema>;

/** `POST /queues/sessions/query`. Visitors and anonymous callers see public sessions only. */
export const sessionQuerySchema = z
  .object({
    queueId: uuid.optional(),
    companyId: uuid.optional(),
    subQueueId: uuid.optional(),
    /** Inclusive local dates; `from` defaults to today in the caller's zone (X-user-timezone). */
    from: localDateSchema.optional(),
    to: localDateSchema.optional(),
    status: z.array(sessionStatusSchema).min(1).max(sessionStatuses.length).optional(),
    limit: int4Schema.min(1).max(500).default(100),
    offset: int4Schema.min(0).default(0),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    path: ['to'],
    message: 'Must be on or after "from"',
  })
  .meta({ id: 'SessionQuery' });
export type SessionQuery = z.infer<typeof sessionQuerySchema>;

/** Query string of `GET /queues/{queueId}/sessions` (no component ids: query strings are inlined). */
export const queueSessionsQuerySchema = z.object({
  from: localDateSchema.optional(),
  to: localDateSchema.optional(),
  status: z.enum(sessionStatuses).optional(),
});

/** Query string of `GET /queues/sessions` (mine): `date` defaults to today in X-user-timezone. */
export const mySessionsQuerySchema = z.object({ date: localDateSchema.optional() });

export const sessionListSchema = z.array(sessionSchema).meta({ id: 'SessionList' });

export const sessionServiceSchema = z
  .object({
    id: uuid,
    sessionId: uuid,
    serviceTypeId: uuid,
    serviceTypeName: z.string(),
    slotMinutes: z.number().int(),
    capacityPerSlot: z.number().int(),
    /** Whole slots in the session window (a last partial slot is dropped). */
    slotCount: z.number().int(),
  })
  .meta({ id: 'SessionService' });
export type SessionService = z.infer<typeof sessionServiceSchema>;

export const slotSchema = z
  .object({
    serviceId: uuid,
    slotNo: z.number().int().min(1),
    startTime: localTimeSchema,
    endTime: localTimeSchema,
    startsAt: z.iso.datetime({ offset: true }),
    endsAt: z.iso.datetime({ offset: true }),
    capacity: z.number().int(),
    bookedCount: z.number().int(),
    status: slotStatusSchema,
    /** Open, not started yet, with room left (capacity 0 is never bookable). */
    bookable: z.boolean(),
  })
  .meta({ id: 'Slot' });
export type Slot = z.infer<typeof slotSchema>;

/** `POST /queues/sessions/services/slots-status`: block or reopen slots of one service. */
export const slotsStatusInputSchema = z
  .object({
    serviceId: uuid,
    slotNos: z
      .array(int4Schema.min(1))
      .min(1)
      .max(1440)
      .refine((n) => new Set(n).size === n.length, 'Each slot only once'),
    status: slotStatusSchema,
  })
  .meta({ id: 'SlotsStatusInput' });
export type SlotsStatusInput = z.infer<typeof slotsStatusInputSchema>;

/** Reads answer anonymous callers too (public queues); a bad token is still 401. */
/** not_found: the queue or service; session_not_found: the session, missing or hidden alike. */
const readErrors = ['validation_failed', 'unauthorized', 'not_found', 'session_not_found'] as const;
const writeErrors = [...signedInErrors, 'not_found', 'session_not_found'] as const;
const sessionIdParams = z.object({ sessionId: uuid });

export const sessionEndpoints = {
  scheduleSessions: endpoint({
    method: 'POST',
    path: '/queues/sessions/schedule',
    tag: 'sessions',
    summary: 'Schedule one session or a weekly series with its services (or preview it)',
    description:
      'Owners and admins. Dates and times are in the company time zone. With `preview: true` ' +
      'nothing is saved (200) and the answer lists what would be created and its conflicts; ' +
      'a save answers 201. Overlaps on one sub-queue are refused (details.conflicts, each ' +
      'naming its plannedDate) unless the series skips those dates (`skipDates`, each a date ' +
      'of the series, or `skipConflicts`); each planned entry says whether it is `skipped`. ' +
      'Archived queues are a conflict.',
    body: scheduleSessionInputSchema,
    responses: { 201: scheduleResultSchema, 200: scheduleResultSchema },
    errors: [...writeErrors, 'session_overlap', 'conflict', 'plan_limit_reached'],
  }),
  editSessions: endpoint({
    method: 'POST',
    path: '/queues/sessions/edit',
    tag: 'sessions',
    summary: 'Edit this session, or it and the following ones of its series',
    description:
      'Owners and admins; scheduled sessions without tokens only (cancelled later ones of a ' +
      'series are left alone). Changed windows regenerate the slots.',
    body: editSessionInputSchema,
    responses: { 200: editSessionResultSchema },
    errors: [...writeErrors, 'session_not_editable', 'session_has_tokens', 'session_overlap'],
  }),
  deleteSessions: endpoint({
    method: 'POST',
    path: '/queues/sessions/delete',
    tag: 'sessions',
    summary: 'Delete this session, or it and the following ones of its series',
    description: 'Owners and admins; scheduled or cancelled sessions without tokens only.',
    body: deleteSessionInputSchema,
    responses: { 200: deleteSessionResultSchema },
    errors: [...writeErrors, 'session_not_editable', 'session_has_tokens'],
  }),
  setSessionStatus: endpoint({
    method: 'POST',
    path: '/queues/sessions/status',
    tag: 'sessions',
    summary: 'Open, pause, close or cancel a session',
    description:
      'scheduled → open ⇄ paused → closed; scheduled, open or paused → cancelled; anything ' +
      'else is invalid_transition (details.from, details.to). Owners and admins, and staff ' +
      "assigned to the session's sub-queue.",
    body: sessionStatusInputSchema,
    responses: { 200: sessionSchema },
    errors: [...writeErrors, 'invalid_transition'],
  }),
  listQueueSessions: endpoint({
    method: 'GET',
    path: '/queues/:queueId/sessions',
    tag: 'sessions',
    summary: "A queue's sessions from today (X-user-timezone) or in a date range",
    description:
      'Company members see every session; others only live sessions (not cancelled or ' +
      'closed, not ended) of active public or unlisted queues (private ones with an ' +
      'approved join request). Hidden queues are not_found.',
    params: z.object({ queueId: uuid }),
    query: queueSessionsQuerySchema,
    responses: { 200: sessionListSchema },
    errors: readErrors,
  }),
  getSession: endpoint({
    method: 'GET',
    path: '/company/queues/:queueId/sessions/:sessionId',
    tag: 'sessions',
    summary: 'One session with live counts (waiting, served, now serving)',
    description: 'Readable by company members and by anyone who can see the queue.',
    params: z.object({ queueId: uuid, sessionId: uuid }),
    responses: { 200: sessionSchema },
    errors: readErrors,
  }),
  mySessions: endpoint({
    method: 'GET',
    path: '/queues/sessions',
    tag: 'sessions',
    summary: "The signed-in member's sessions on a day (default: today in X-user-timezone)",
    description:
      'Owners and admins: every session of their companies; staff: sessions of the ' +
      'sub-queues assigned to them; anyone else: none.',
    query: mySessionsQuerySchema,
    responses: { 200: sessionListSchema },
    errors: ['validation_failed', 'unauthorized'],
  }),
  querySessions: endpoint({
    method: 'POST',
    path: '/queues/sessions/query',
    tag: 'sessions',
    summary: 'Find sessions by queue, company, sub-queue, date range and status',
    description:
      "Members see their companies' sessions; everyone else live sessions of active public " +
      'queues (unlisted ones too when asked by queueId). `from` defaults to today.',
    body: sessionQuerySchema,
    responses: { 200: sessionListSchema },
    errors: ['validation_failed', 'unauthorized'],
  }),
  listSessionServices: endpoint({
    method: 'GET',
    path: '/queues/sessions/:sessionId/services',
    tag: 'sessions',
    summary: 'Services offered in a session',
    description: 'Readable by company members and by anyone who can see the queue.',
    params: sessionIdParams,
    responses: { 200: z.array(sessionServiceSchema) },
    errors: readErrors,
  }),
  addSessionService: endpoint({
    method: 'POST',
    path: '/queues/sessions/:sessionId/services',
    tag: 'sessions',
    summary: 'Offer a service type in a session; its slots are generated at once',
    description: 'Owners and admins; not in closed or cancelled sessions; one service per type.',
    params: sessionIdParams,
    body: sessionServiceInputSchema,
    responses: { 201: sessionServiceSchema },
    errors: [...writeErrors, 'service_exists', 'session_not_editable'],
  }),
  listSlots: endpoint({
    method: 'GET',
    path: '/queues/sessions/services/:serviceId/slots',
    tag: 'sessions',
    summary: 'Slots 1..n of a session service, blocked ones included',
    description:
      'Whole slots of the slot length from the session start; a last partial slot is ' +
      'dropped. Slots of capacity 0 are listed but never bookable.',
    params: z.object({ serviceId: uuid }),
    responses: { 200: z.array(slotSchema) },
    errors: readErrors,
  }),
  setSlotsStatus: endpoint({
    method: 'POST',
    path: '/queues/sessions/services/slots-status',
    tag: 'sessions',
    summary: 'Block or reopen slots of a session service',
    description:
      "Owners and admins, and staff assigned to the session's sub-queue. Answers every " +
      'slot of the service; unknown slot numbers are not_found (details.missing).',
    body: slotsStatusInputSchema,
    responses: { 200: z.array(slotSchema) },
    errors: writeErrors,
  }),
};
