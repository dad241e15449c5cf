import type { SessionCounts } from '@upnext/contract/sessions';
import { BOOKING_LIVE_WINDOW_MINUTES, type TokenStatus } from '@upnext/contract/tokens';
import { type AnyColumn, and, asc, desc, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import { alias, type PgInsertValue } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import {
  companies,
  companyTokenMonths,
  queues,
  serviceTypes,
  sessionServices,
  sessions,
  slots,
  subQueues,
  userProfiles,
} from '../../db/schema/index.ts';
import {
  atDeskStatuses,
  liveTokenStatuses,
  queueTokens,
  timedVisit,
  tokenWaitSeconds,
} from '../../db/schema/tokens.ts';
import { isOneOf } from '../../db/schema/values.ts';
import { tiesColumns, tiesFromRow } from '../access/access.repository.ts';
import {
  billingColumns,
  type CompanyBilling,
  tokenMonthRow,
} from '../billing/billing.repository.ts';
import { newSubscribeId } from '../users/users.repository.ts';

type Queryable = Db | Tx;
export type TokenRow = typeof queueTokens.$inferSelect;
export type NewToken = typeof queueTokens.$inferInsert;

/** A session with what issuing and serving need from its queue and company. */
const sessionContext = {
  sessionId: sessions.id,
  status: sessions.status,
  visitorNotes: sessions.visitorNotes,
  date: sessions.date,
  startTime: sessions.startTime,
  endTime: sessions.endTime,
  timezone: sessions.timezone,
  startsAt: sessions.startsAt,
  endsAt: sessions.endsAt,
  capacity: sessions.capacity,
  lastIssuedNumber: sessions.lastIssuedNumber,
  /** Numbers whose payment hold was released: their places count as free (placesLeft). */
  releasedPlaces: sessions.releasedPlaces,
  /** Its waiting and booked tokens (the counters on the session row): the line's length. */
  tokensWaiting: sessions.tokensWaiting,
  tokensBooked: sessions.tokensBooked,
  subQueueId: sessions.subQueueId,
  queueId: queues.id,
  queueName: queues.name,
  queueStatus: queues.status,
  visibility: queues.visibility,
  mode: queues.mode,
  tokenPrefix: queues.tokenPrefix,
  joinCode: queues.joinCode,
  /** A paid visit: the queue's price (null when free) and its cancellation rule. */
  priceMinor: queues.priceMinor,
  currency: queues.currency,
  cancelNoticeMinutes: queues.cancelNoticeMinutes,
  refundPercent: queues.refundPercent,
  /** How long before its slot a visitor may still cancel or move a booking themselves. */
  changeCutoffMinutes: queues.changeCutoffMinutes,
  tokensPerVisitor: queues.tokensPerVisitor,
  /** What a visitor answers on taking a place, walk-in or booking (checkIntakeAnswers). */
  intakeQuestions: queues.intakeQuestions,
  turnApproachingThreshold: queues.turnApproachingThreshold,
  companyId: queues.companyId,
  companyName: companies.name,
  /** National phone numbers entered for the session are read in it. */
  country: companies.country,
  /** The counter, desk or practitioner: where a called visitor goes. */
  subQueueName: subQueues.name,
};
export type SessionContext = {
  [K in Exclude<
    keyof typeof sessionContext,
    'subQueueName'
  >]: (typeof sessionContext)[K]['_']['data'];
} & { subQueueName: string | null };

/** What a token issue's lock statement reads besides: the plan, and its month's token counter. */
const planForIssue = {
  plan: billingColumns,
  month: companyTokenMonths.month,
  monthTokens: companyTokenMonths.tokens,
};

/**
 * The session's context, and with it, when asked, a user's ties to the session (and, for an
 * issue, its plan).
 */
function selectSession(
  db: Queryable,
  fields: typeof sessionContext &
    Partial<ReturnType<typeof tiesColumns>> &
    Partial<typeof planForIssue>,
) {
  return db
    .select(fields)
    .from(sessions)
    .innerJoin(queues, eq(queues.id, sessions.queueId))
    .innerJoin(companies, eq(companies.id, queues.companyId))
    .leftJoin(subQueues, eq(subQueues.id, sessions.subQueueId));
}

export async function findSessionContext(db: Queryable, sessionId: string) {
  const [row] = await selectSession(db, sessionContext).where(eq(sessions.id, sessionId)).limit(1);
  return row as SessionContext | undefined;
}

/** Locks the session row: every number and every call in a session goes one at a time. */
export async function lockSessionContext(tx: Tx, sessionId: string) {
  const [row] = await selectSession(tx, sessionContext)
    .where(eq(sessions.id, sessionId))
    .for('update', { of: sessions });
  return row as SessionContext | undefined;
}

/** The ties of the user given as the `userId` placeholder to the session selected. */
const userTies = (db: Queryable) =>
  tiesColumns(db, sql.placeholder('userId'), {
    companyId: queues.companyId,
    queueId: sessions.queueId,
    subQueueId: sessions.subQueueId,
  });

const sessionWithTies = preparedStatement('lock_session_with_ties', (db) =>
  selectSession(db, {
    ...sessionContext,
    ...userTies(db),
  })
    .where(eq(sessions.id, sql.placeholder('sessionId')))
    .for('update', { of: sessions }),
);

/**
 * `lockSessionContext` with a user's ties to the session (the access rule's look-up) read in
 * the same statement: a token issue asks the rule without a round trip under the lock.
 */
export async function lockSessionWithTies(tx: Tx, sessionId: string, userId: string) {
  const [row] = await sessionWithTies(tx, { sessionId, userId });
  if (!row) return undefined;
  const { role, assigned, approved, administers, ...session } = row;
  return {
    session: session as SessionContext,
    ties: tiesFromRow({ role, assigned, approved, administers }),
  };
}

const sessionForIssue = preparedStatement('lock_session_for_issue', (db) =>
  selectSession(db, {
    ...sessionContext,
    ...userTies(db),
    ...planForIssue,
  })
    .innerJoin(
      companyTokenMonths,
      tokenMonthRow(companies.id, sql.placeholder('now'), companies.timezone),
    )
    .where(eq(sessions.id, sql.placeholder('sessionId')))
    // One strength for the three rows (Drizzle writes one locking clause): `no key update`,
    // as the plan's own lock (`lockCompanyBilling`); for the session it still excludes every
    // other lock of it (`for update` and `no key update` alike).
    .for('no key update', { of: [sessions, companies, companyTokenMonths] }),
);

/**
 * `lockSessionWithTies` for a token issue, with the company's plan and its token counter for
 * the month of `now` locked in the same statement (lock order: session, company, counter), so
 * the plan's check needs no round trip under the lock (`assertWithinPlan`'s `locked`).
 * Nothing when the company has no counter for that month yet (its first token of the month):
 * the caller then locks the session alone, and the plan and its count after it.
 */
export async function lockSessionForIssue(tx: Tx, sessionId: string, userId: string, now: Date) {
  const [row] = await sessionForIssue(tx, { sessionId, userId, now: now.toISOString() });
  if (!row) return undefined;
  const { role, assigned, approved, administers, plan, month, monthTokens, ...session } = row;
  return {
    session: session as SessionContext,
    ties: tiesFromRow({ role, assigned, approved, administers }),
    plan: {
      company: plan as CompanyBilling,
      month: month as string,
      tokens: monthTokens as number,
    },
  };
}

/** Every column an issue sets on a new token: `insertNextToken`'s statement is built once. */
const issuedColumns = [
  'sessionId',
  'number',
  'displayNumber',
  'kind',
  'sessionServiceId',
  'slotNo',
  'slotStartsAt',
  'userId',
  'visitorName',
  'visitorPhone',
  'visitorEmail',
  'issuedBy',
  'status',
  'priority',
  'notes',
  'intakeAnswers',
  'idempotencyKey',
  'language',
  'joinedAt',
  'updatedAt',
] as const satisfies readonly (keyof NewToken)[];
export type IssuedToken = {
  [K in (typeof issuedColumns)[number]]-?: Exclude<NewToken[K], undefined>;
};

// Bare placeholders (the values come encoded): Drizzle's own encoding of a placeholder would
// turn a null timestamp into an error and a null JSON value into JSON's `null`.
const bare = (name: string) => sql`${sql.placeholder(name)}`;
const nextTokenInsert = preparedStatement('insert_next_token', (db) => {
  const numbered = db.$with('numbered').as(
    db
      .update(sessions)
      .set({ lastIssuedNumber: bare('number'), updatedAt: bare('updatedAt') })
      .where(eq(sessions.id, bare('sessionId')))
      .returning({ id: sessions.id }),
  );
  const values = Object.fromEntries(issuedColumns.map((column) => [column, bare(column)]));
  return db
    .with(numbered)
    .insert(queueTokens)
    .values(values as PgInsertValue<typeof queueTokens>)
    .returning();
});

/**
 * The session's next number and the token that takes it, in one statement: the caller holds
 * the session's lock, so the number it read (`lastIssuedNumber + 1`) is still the next one.
 */
export async function insertNextToken(
  tx: Tx,
  session: Pick<SessionContext, 'sessionId' | 'lastIssuedNumber'>,
  values: (number: number) => IssuedToken,
): Promise<TokenRow> {
  const token = values(session.lastIssuedNumber + 1);
  // As Drizzle encodes a value it binds: a null stays null, anything else as its column says.
  const encoded = Object.fromEntries(
    issuedColumns.map((column) => {
      const value = token[column];
      return [
        column,
        value === null ? null : (queueTokens[column] as AnyColumn).mapToDriverValue(value),
      ];
    }),
  );
  const [row] = await nextTokenInsert(tx, encoded);
  if (!row) throw new Error('token not inserted');
  return row;
}

/**
 * Moves a token to another session (a rescheduled booking), which the caller holds locked: it
 * takes that session's next number, in one statement as `insertNextToken` does.
 */
export async function moveTokenToSession(
  tx: Tx,
  tokenId: string,
  to: Pick<SessionContext, 'sessionId' | 'lastIssuedNumber'>,
  values: (number: number) => Partial<NewToken>,
): Promise<TokenRow> {
  const number = to.lastIssuedNumber + 1;
  const changes = { ...values(number), sessionId: to.sessionId, number };
  const numbered = tx.$with('numbered').as(
    tx
      .update(sessions)
      .set({ lastIssuedNumber: number, updatedAt: changes.updatedAt ?? new Date() })
      .where(eq(sessions.id, to.sessionId))
      .returning({ id: sessions.id }),
  );
  const [row] = await tx
    .with(numbered)
    .update(queueTokens)
    .set(changes)
    .where(eq(queueTokens.id, tokenId))
    .returning();
  if (!row) throw new Error('token not moved');
  return row;
}

/** A cancelled row, so a number stays taken in its session (the gap-free rule). */
export async function insertTokenRow(tx: Tx, values: NewToken) {
  await tx.insert(queueTokens).values(values);
}

/**
 * The one capacity rule of a session: numbers issued, less the places payment holds gave back
 * (`last_issued_number - released_places`), stay within its capacity (the table checks it too).
 */
export function hasFreePlace(
  session: Pick<SessionContext, 'lastIssuedNumber' | 'releasedPlaces' | 'capacity'>,
) {
  return session.lastIssuedNumber - session.releasedPlaces < session.capacity;
}

/**
 * Gives a place back to the session (a payment hold released: `by` 1) or takes a released one
 * again (a payment that arrived after its hold: `by` -1). The session row is locked by the
 * caller; the table's check keeps `last_issued_number - released_places <= capacity`.
 */
export async function changeReleasedPlaces(tx: Tx, sessionId: string, by: 1 | -1, now: Date) {
  await tx
    .update(sessions)
    .set({ releasedPlaces: sql`${sessions.releasedPlaces} + ${by}`, updatedAt: now })
    .where(eq(sessions.id, sessionId));
}

/** The user's live tokens in the session (the per-visitor limit counts them). */
export async function liveTokenIdsOf(tx: Tx, sessionId: string, userId: string) {
  const rows = await tx
    .select({ id: queueTokens.id })
    .from(queueTokens)
    .where(
      and(
        eq(queueTokens.sessionId, sessionId),
        eq(queueTokens.userId, userId),
        inArray(queueTokens.status, [...liveTokenStatuses]),
      ),
    )
    .orderBy(asc(queueTokens.number));
  return rows.map((row) => row.id);
}

export async function findByIdempotencyKey(db: Queryable, sessionId: string, key: string) {
  const [row] = await db
    .select()
    .from(queueTokens)
    .where(and(eq(queueTokens.sessionId, sessionId), eq(queueTokens.idempotencyKey, key)));
  return row;
}

/** The slot and its session service, locked: bookings of one slot go one at a time. */
export async function lockSlot(tx: Tx, serviceId: string, slotNo: number) {
  const [row] = await tx
    .select({
      sessionId: sessionServices.sessionId,
      slotNo: slots.slotNo,
      startsAt: slots.startsAt,
      endsAt: slots.endsAt,
      capacity: slots.capacity,
      bookedCount: slots.bookedCount,
      status: slots.status,
    })
    .from(slots)
    .innerJoin(sessionServices, eq(sessionServices.id, slots.sessionServiceId))
    .where(and(eq(slots.sessionServiceId, serviceId), eq(slots.slotNo, slotNo)))
    .for('update', { of: slots });
  return row;
}

export async function findServiceSession(db: Queryable, serviceId: string) {
  const [row] = await db
    .select({ sessionId: sessionServices.sessionId })
    .from(sessionServices)
    .where(eq(sessionServices.id, serviceId));
  return row?.sessionId;
}

export async function changeBookedCount(tx: Tx, serviceId: string, slotNo: number, by: number) {
  await tx
    .update(slots)
    .set({ bookedCount: sql`${slots.bookedCount} + ${by}` })
    .where(and(eq(slots.sessionServiceId, serviceId), eq(slots.slotNo, slotNo)));
}

export async function findToken(db: Queryable, tokenId: string) {
  const [row] = await db.select().from(queueTokens).where(eq(queueTokens.id, tokenId));
  return row;
}

export async function lockToken(tx: Tx, tokenId: string) {
  const [row] = await tx
    .select()
    .from(queueTokens)
    .where(eq(queueTokens.id, tokenId))
    .for('update');
  return row;
}

export async function updateToken(tx: Tx, tokenId: string, values: Partial<NewToken>) {
  const [row] = await tx
    .update(queueTokens)
    .set(values)
    .where(eq(queueTokens.id, tokenId))
    .returning();
  if (!row) throw new Error(`token ${tokenId} vanished while locked`);
  return row;
}

/** The latest slot start of a booking that is due (in the line) at `now`. */
function dueByInstant(now: Date) {
  return new Date(now.getTime() + BOOKING_LIVE_WINDOW_MINUTES * 60_000).toISOString();
}

/** `dueByInstant` as SQL, or the `dueBy` placeholder of a statement built once. */
function dueBy(now: Date | 'placeholder') {
  const instant = now === 'placeholder' ? sql.placeholder('dueBy') : dueByInstant(now);
  return sql`${instant}::timestamptz`;
}

/**
 * The live line: waiting tokens, and bookings whose slot starts within the window
 * (BOOKING_LIVE_WINDOW_MINUTES). A booking further off keeps status `booked` and waits for its
 * time, never called ahead of walk-ins. `now` is a parameter so that the clock, not the
 * database, decides.
 */
function inLine(now: Date): SQL {
  return sql`(${queueTokens.status} = 'waiting' or (${queueTokens.status} = 'booked' and ${queueTokens.slotStartsAt} <= ${dueBy(now)}))`;
}

/** The columns the order of service reads, of `queue_tokens` or of an alias of it. */
type OrderColumns = Record<'priority' | 'kind' | 'slotStartsAt' | 'number', AnyColumn>;

/** A booking whose slot has started or is within the window (served before walk-ins). */
function dueBooking(now: Date, tokens: OrderColumns = queueTokens): SQL {
  return sql`coalesce(${tokens.kind} = 'booking' and ${tokens.slotStartsAt} <= ${dueBy(now)}, false)`;
}

/**
 * The order of service (PRODUCT.md): priority, then bookings whose slot has started or is
 * within the window, then number.
 */
function serviceOrder(now: Date) {
  return [desc(queueTokens.priority), sql`${dueBooking(now)} desc`, asc(queueTokens.number)];
}

/** `serviceOrder` as one ascending key, to compare two tokens' places in SQL. */
function serviceKey(now: Date, tokens: OrderColumns = queueTokens): SQL {
  return sql`(-${tokens.priority}, not ${dueBooking(now, tokens)}, ${tokens.number})`;
}

/**
 * A token's place in the live line (1 = next), counted in the database: the tokens of the
 * line ahead of it, without reading the line into Node.
 */
export async function positionInLine(tx: Tx, token: TokenRow, now: Date) {
  const self = alias(queueTokens, 'self');
  const [row] = await tx
    .select({ ahead: sql<number>`count(*)::int` })
    .from(queueTokens)
    .innerJoin(self, eq(self.id, token.id))
    .where(
      and(
        eq(queueTokens.sessionId, token.sessionId),
        inLine(now),
        sql`${serviceKey(now)} < ${serviceKey(now, self)}`,
      ),
    );
  return (row?.ahead ?? 0) + 1;
}

/**
 * The next token of the line, locked. SKIP LOCKED lets a second caller pass over a token
 * another transaction is taking, so two staff pressing "next" never get the same one.
 */
export async function claimNextInLine(tx: Tx, sessionId: string, now: Date) {
  const [row] = await tx
    .select()
    .from(queueTokens)
    .where(and(eq(queueTokens.sessionId, sessionId), inLine(now)))
    .orderBy(...serviceOrder(now))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

/** Bookings that became due join the line by status too (`booked` → `waiting`). */
export async function admitDueBookings(tx: Tx, sessionId: string, now: Date) {
  return tx
    .update(queueTokens)
    .set({ status: 'waiting', updatedAt: now })
    .where(
      and(
        eq(queueTokens.sessionId, sessionId),
        eq(queueTokens.status, 'booked'),
        sql`${queueTokens.slotStartsAt} <= ${dueBy(now)}`,
      ),
    )
    .returning();
}

/** Tokens this staff member has called or is serving in the session. */
export async function activeTokensOf(tx: Tx, sessionId: string, staffId: string) {
  return tx
    .select()
    .from(queueTokens)
    .where(
      and(
        eq(queueTokens.sessionId, sessionId),
        eq(queueTokens.calledBy, staffId),
        isOneOf(queueTokens.status, atDeskStatuses),
      ),
    )
    .for('update');
}

/** The live line in service order (position = index + 1). */
export async function waitingLine(db: Queryable, sessionId: string, now: Date) {
  return db
    .select({
      id: queueTokens.id,
      userId: queueTokens.userId,
      number: queueTokens.number,
      displayNumber: queueTokens.displayNumber,
      slotStartsAt: queueTokens.slotStartsAt,
    })
    .from(queueTokens)
    .where(and(eq(queueTokens.sessionId, sessionId), inLine(now)))
    .orderBy(...serviceOrder(now));
}

export async function listTokens(
  db: Queryable,
  filter: {
    sessionId?: string | undefined;
    userId?: string | undefined;
    statuses?: readonly TokenStatus[] | undefined;
    kind?: 'walk_in' | 'booking' | undefined;
    serviceId?: string | undefined;
    slotNo?: number | undefined;
  },
) {
  const conditions = [
    filter.sessionId ? eq(queueTokens.sessionId, filter.sessionId) : undefined,
    filter.userId ? eq(queueTokens.userId, filter.userId) : undefined,
    filter.statuses ? inArray(queueTokens.status, [...filter.statuses]) : undefined,
    filter.kind ? eq(queueTokens.kind, filter.kind) : undefined,
    filter.serviceId ? eq(queueTokens.sessionServiceId, filter.serviceId) : undefined,
    filter.slotNo !== undefined ? eq(queueTokens.slotNo, filter.slotNo) : undefined,
  ].filter((condition) => condition !== undefined);
  return db
    .select({ token: queueTokens, queueId: sessions.queueId })
    .from(queueTokens)
    .innerJoin(sessions, eq(sessions.id, queueTokens.sessionId))
    .where(and(...conditions))
    .orderBy(desc(sessions.startsAt), asc(queueTokens.number))
    .limit(1000);
}

/** Bookings of a session that are due (in the line) though their status is still `booked`. */
function dueBooked(now: Date | 'placeholder') {
  return sql<number>`(select count(*)::int from queue_tokens t where t.session_id = "sessions"."id" and t.status = 'booked' and t.slot_starts_at <= ${dueBy(now)})`;
}

/** A token `t` at a desk, in the words of the partial index that finds them. */
const atDesk = isOneOf(sql.raw('t.status'), atDeskStatuses);

/**
 * The live figures of sessions, from the counters their row keeps per token status (the
 * database keeps them on every change of a token: migration 0009), the due bookings and the
 * last call: the one source of every count a screen shows (session API, join page, session
 * control, the board and its topic). Reads one row per session, however long its line.
 */
const countColumns = (now: Date | 'placeholder') => ({
  sessionId: sessions.id,
  pendingPayment: sessions.tokensPendingPayment,
  booked: sessions.tokensBooked,
  waiting: sessions.tokensWaiting,
  called: sessions.tokensCalled,
  serving: sessions.tokensServing,
  served: sessions.tokensServed,
  noShows: sessions.tokensNoShow,
  cancelled: sessions.tokensCancelled,
  dueBooked: dueBooked(now),
  nowServing: sql<
    number | null
  >`(select t.number from queue_tokens t where t.session_id = "sessions"."id" and ${atDesk} order by t.called_at desc limit 1)`,
});

function countsOf(
  row: Omit<
    { [K in keyof ReturnType<typeof countColumns>]: number },
    'sessionId' | 'nowServing'
  > & { nowServing: number | null },
): SessionCounts {
  return {
    issued:
      row.pendingPayment +
      row.booked +
      row.waiting +
      row.called +
      row.serving +
      row.served +
      row.noShows +
      row.cancelled,
    booked: row.booked - row.dueBooked,
    waiting: row.waiting + row.dueBooked,
    called: row.called,
    serving: row.serving,
    served: row.served,
    noShows: row.noShows,
    cancelled: row.cancelled,
    nowServing: row.nowServing,
  };
}

export async function sessionCounts(
  db: Queryable,
  sessionIds: readonly string[],
  now: Date,
): Promise<Map<string, SessionCounts>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db
    .select(countColumns(now))
    .from(sessions)
    .where(inArray(sessions.id, [...sessionIds]));
  return new Map(rows.map((row) => [row.sessionId, countsOf(row)]));
}

type Called = { number: number; displayNumber: string; calledAt: Date };

/**
 * A session's counts, the staff now calling (waiting tokens are shared among them) and its
 * last calls, newest first (at most 6: the board's call-out and history), in one statement
 * that reads no more of the session's tokens than those called and the bookings.
 */
const figuresOfSession = preparedStatement('session_figures', (db) =>
  db
    .select({
      ...countColumns('placeholder'),
      counters: sql<number>`(select count(distinct t.called_by)::int from queue_tokens t where t.session_id = "sessions"."id" and ${atDesk})`,
      lastCalled: sql<
        Called[] | string
      >`(select coalesce(json_agg(json_build_object('number', c.number, 'displayNumber', c.display_number, 'calledAt', c.called_at) order by c.called_at desc, c.number desc), '[]') from (select t.number, t.display_number, t.called_at from queue_tokens t where t.session_id = "sessions"."id" and t.called_at is not null order by t.called_at desc, t.number desc limit 6) c)`,
    })
    .from(sessions)
    .where(eq(sessions.id, sql.placeholder('sessionId'))),
);

export async function sessionFigures(db: Queryable, sessionId: string, now: Date) {
  const [row] = await figuresOfSession(db, { sessionId, dueBy: dueByInstant(now) });
  if (!row) throw new Error(`session ${sessionId} vanished`);
  const called = (
    typeof row.lastCalled === 'string' ? JSON.parse(row.lastCalled) : row.lastCalled
  ) as Array<Omit<Called, 'calledAt'> & { calledAt: string }>;
  return {
    counts: countsOf(row),
    counters: row.counters,
    lastCalled: called.map((entry) => ({ ...entry, calledAt: new Date(entry.calledAt) })),
  };
}

/** How many are in the live line: the waiting tokens and the due bookings. */
export async function lineLength(tx: Tx, session: SessionContext, now: Date) {
  if (session.tokensBooked === 0) return session.tokensWaiting;
  const [row] = await tx
    .select({ due: dueBooked(now) })
    .from(sessions)
    .where(eq(sessions.id, session.sessionId));
  return session.tokensWaiting + (row?.due ?? 0);
}

/** How far back estimates look: the queue's recent service, not its whole history. */
const RECENT_SERVED_TOKENS = 50;
const RECENT_SERVICE_DAYS = 30;

/** Median service seconds of the queue's last served tokens (at most 50, of 30 days). */
export async function recentServiceMedian(db: Queryable, queueId: string, now: Date) {
  const since = new Date(now.getTime() - RECENT_SERVICE_DAYS * 86_400_000);
  const recent = db
    .select({ seconds: queueTokens.serviceSeconds })
    .from(queueTokens)
    .innerJoin(sessions, eq(sessions.id, queueTokens.sessionId))
    .where(
      and(
        eq(sessions.queueId, queueId),
        eq(queueTokens.status, 'served'),
        isNotNull(queueTokens.serviceSeconds),
        sql`${queueTokens.completedAt} >= ${since.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(desc(queueTokens.completedAt))
    .limit(RECENT_SERVED_TOKENS)
    .as('recent');
  const [row] = await db
    .select({
      median: sql<
        number | null
      >`percentile_cont(0.5) within group (order by ${recent.seconds})::float8`,
    })
    .from(recent);
  return row?.median ?? null;
}

/**
 * Service and wait times of served tokens, in seconds. PostgreSQL computes the percentiles,
 * so the figures are the same on both drivers.
 */
export async function serviceTimeStats(
  db: Queryable,
  filter: {
    queueId?: string | undefined;
    sessionId?: string | undefined;
    from?: string | undefined;
    to?: string | undefined;
  },
) {
  const conditions = [
    timedVisit,
    filter.queueId ? eq(sessions.queueId, filter.queueId) : undefined,
    filter.sessionId ? eq(queueTokens.sessionId, filter.sessionId) : undefined,
    filter.from ? sql`${sessions.date} >= ${filter.from}` : undefined,
    filter.to ? sql`${sessions.date} <= ${filter.to}` : undefined,
  ].filter((condition) => condition !== undefined);
  const wait = tokenWaitSeconds;
  const [row] = await db
    .select({
      tokens: sql<number>`count(*)::int`,
      serviceAverage: sql<number | null>`avg(${queueTokens.serviceSeconds})::float8`,
      serviceMedian: sql<
        number | null
      >`percentile_cont(0.5) within group (order by ${queueTokens.serviceSeconds})::float8`,
      serviceP90: sql<
        number | null
      >`percentile_cont(0.9) within group (order by ${queueTokens.serviceSeconds})::float8`,
      waitAverage: sql<number | null>`avg(${wait})::float8`,
      waitMedian: sql<number | null>`percentile_cont(0.5) within group (order by ${wait})::float8`,
      waitP90: sql<number | null>`percentile_cont(0.9) within group (order by ${wait})::float8`,
    })
    .from(queueTokens)
    .innerJoin(sessions, eq(sessions.id, queueTokens.sessionId))
    .where(and(...conditions));
  return row;
}

/** The typical length of a service in a queue, from the planned durations of its types. */
export async function plannedServiceSeconds(db: Queryable, queueId: string) {
  const [row] = await db
    .select({ seconds: sql<number | null>`(avg(${serviceTypes.durationMinutes}) * 60)::float8` })
    .from(serviceTypes)
    .where(and(eq(serviceTypes.queueId, queueId), eq(serviceTypes.active, true)));
  return row?.seconds ?? null;
}

export async function bookingContext(db: Queryable, serviceId: string, slotNo: number) {
  const [row] = await db
    .select({
      serviceName: serviceTypes.name,
      slotStartsAt: slots.startsAt,
      slotEndsAt: slots.endsAt,
    })
    .from(slots)
    .innerJoin(sessionServices, eq(sessionServices.id, slots.sessionServiceId))
    .innerJoin(serviceTypes, eq(serviceTypes.id, sessionServices.serviceTypeId))
    .where(and(eq(slots.sessionServiceId, serviceId), eq(slots.slotNo, slotNo)));
  return row;
}

/**
 * The user's private topic name, made on first need: random, unique and stable
 * (`user_profiles.subscribe_id`).
 */
export async function subscribeIdsOf(db: Queryable, userIds: readonly string[]) {
  if (userIds.length === 0) return new Map<string, string>();
  await db
    .insert(userProfiles)
    .values(userIds.map((userId) => ({ userId, subscribeId: newSubscribeId() })))
    .onConflictDoNothing({ target: userProfiles.userId });
  const rows = await db
    .select({ userId: userProfiles.userId, subscribeId: userProfiles.subscribeId })
    .from(userProfiles)
    .where(inArray(userProfiles.userId, [...userIds]));
  return new Map(rows.map((row) => [row.userId, row.subscribeId]));
}

export async function companyOfQueue(db: Queryable, queueId: string) {
  const [row] = await db
    .select({ companyId: queues.companyId })
    .from(queues)
    .where(eq(queues.id, queueId));
  return row?.companyId;
}

/** A queue's name, company and the facts its audience is decided by (for its branch board). */
export async function findQueueBoardContext(db: Queryable, queueId: string) {
  const [row] = await db
    .select({
      queueId: queues.id,
      queueName: queues.name,
      queueStatus: queues.status,
      visibility: queues.visibility,
      joinCode: queues.joinCode,
      companyId: queues.companyId,
      companyName: companies.name,
    })
    .from(queues)
    .innerJoin(companies, eq(companies.id, queues.companyId))
    .where(eq(queues.id, queueId));
  return row;
}

/**
 * The queue's sessions dated today in their own time zone that are not over (scheduled, open
 * or paused), by start: the counters of a branch board. Served by `sessions_queue_date_idx`.
 */
export async function todaysSessionIds(db: Queryable, queueId: string, now: Date, limit: number) {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.queueId, queueId),
        sql`${sessions.date} = (${now.toISOString()}::timestamptz at time zone ${sessions.timezone})::date`,
        inArray(sessions.status, ['scheduled', 'open', 'paused']),
      ),
    )
    .orderBy(asc(sessions.startsAt), asc(sessions.id))
    .limit(limit);
  return rows.map((row) => row.id);
}
