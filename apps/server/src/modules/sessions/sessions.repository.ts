import {
  and,
  asc,
  eq,
  gt,
  gte,
  inArray,
  isNull,
  lt,
  lte,
  ne,
  notInArray,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { companies, companyUsers } from '../../db/schema/companies.ts';
import { queues, serviceTypes, subQueues } from '../../db/schema/queues.ts';
import { sessionServices, sessions, slots } from '../../db/schema/sessions.ts';

type Queryable = Db | Tx;

type SessionStatusValue = (typeof sessions.$inferSelect)['status'];

/** A queue with what the sessions module needs: owner company and its time zone. */
export async function findQueueContext(db: Queryable, queueId: string) {
  const [row] = await db
    .select({
      id: queues.id,
      companyId: queues.companyId,
      visibility: queues.visibility,
      status: queues.status,
      timezone: companies.timezone,
    })
    .from(queues)
    .innerJoin(companies, eq(companies.id, queues.companyId))
    .where(eq(queues.id, queueId))
    .limit(1);
  return row;
}
export type QueueContext = NonNullable<Awaited<ReturnType<typeof findQueueContext>>>;

export async function findSubQueue(db: Queryable, subQueueId: string) {
  const [row] = await db
    .select({ id: subQueues.id, queueId: subQueues.queueId })
    .from(subQueues)
    .where(eq(subQueues.id, subQueueId))
    .limit(1);
  return row;
}

export async function findServiceTypes(db: Queryable, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: serviceTypes.id,
      queueId: serviceTypes.queueId,
      name: serviceTypes.name,
      active: serviceTypes.active,
    })
    .from(serviceTypes)
    .where(inArray(serviceTypes.id, ids));
}

/**
 * Local wall-clock windows to instants, by PostgreSQL's zone rules (the same conversion the
 * demo seed uses), so a 09:00 session stays 09:00 local across daylight-saving changes.
 */
export async function toInstants(
  db: Queryable,
  timezone: string,
  windows: ReadonlyArray<{ date: string; startTime: string; endTime: string }>,
): Promise<Array<{ startsAt: Date; endsAt: Date }>> {
  if (windows.length === 0) return [];
  const values = sql.join(
    windows.map(
      (w, i) => sql`(${i}::int, ${w.date}::date, ${w.startTime}::time, ${w.endTime}::time)`,
    ),
    sql`, `,
  );
  const result = await db.execute(
    sql`select v.i, (v.d + v.s) at time zone ${timezone} as starts_at,
               (v.d + v.e) at time zone ${timezone} as ends_at
          from (values ${values}) as v(i, d, s, e) order by v.i`,
  );
  const rows = (
    result as unknown as { rows: Array<{ starts_at: string | Date; ends_at: string | Date }> }
  ).rows;
  return rows.map((row) => ({
    startsAt: new Date(row.starts_at),
    endsAt: new Date(row.ends_at),
  }));
}

/**
 * Serialises schedule changes of one queue (all its sub-queues) until the transaction ends,
 * so two concurrent schedules cannot both pass the overlap check.
 */
export async function lockQueueSchedule(tx: Tx, queueId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sessions:${queueId}`}))`);
}

/**
 * Live (not cancelled) sessions on the same line, meeting [from, to): the sub-queue's, or
 * the queue's own sessions without a sub-queue. Touching windows do not overlap.
 */
export async function sessionsOnLineBetween(
  db: Queryable,
  line: { queueId: string; subQueueId: string | null },
  from: Date,
  to: Date,
  excludeIds: string[],
) {
  const conditions: SQL[] = [
    eq(sessions.queueId, line.queueId),
    line.subQueueId === null
      ? isNull(sessions.subQueueId)
      : eq(sessions.subQueueId, line.subQueueId),
    ne(sessions.status, 'cancelled'),
    lt(sessions.startsAt, to),
    gt(sessions.endsAt, from),
  ];
  if (excludeIds.length > 0) conditions.push(notInArray(sessions.id, excludeIds));
  return db
    .select({
      id: sessions.id,
      date: sessions.date,
      startTime: sessions.startTime,
      endTime: sessions.endTime,
      startsAt: sessions.startsAt,
      endsAt: sessions.endsAt,
      status: sessions.status,
      subQueueId: sessions.subQueueId,
    })
    .from(sessions)
    .where(and(...conditions))
    .orderBy(asc(sessions.startsAt));
}

export type NewSession = typeof sessions.$inferInsert;

export async function insertSessions(tx: Tx, rows: NewSession[]) {
  if (rows.length === 0) return [];
  return tx.insert(sessions).values(rows).returning();
}

export type SessionRow = typeof sessions.$inferSelect;

export async function insertService(
  tx: Tx,
  row: { sessionId: string; serviceTypeId: string; slotMinutes: number; capacityPerSlot: number },
) {
  const [service] = await tx.insert(sessionServices).values(row).returning();
  if (!service) throw new Error('session service was not created');
  return service;
}

export async function replaceSlots(
  tx: Tx,
  serviceId: string,
  rows: Array<{ slotNo: number; startsAt: Date; endsAt: Date; capacity: number }>,
) {
  await tx.delete(slots).where(eq(slots.sessionServiceId, serviceId));
  if (rows.length === 0) return;
  await tx.insert(slots).values(rows.map((row) => ({ ...row, sessionServiceId: serviceId })));
}

/** Sessions with their queue, company and sub-queue names, for answers. */
function sessionViewQuery(db: Queryable) {
  return db
    .select({
      session: sessions,
      queueName: queues.name,
      companyId: queues.companyId,
      queueStatus: queues.status,
      visibility: queues.visibility,
      subQueueName: subQueues.name,
    })
    .from(sessions)
    .innerJoin(queues, eq(queues.id, sessions.queueId))
    .leftJoin(subQueues, eq(subQueues.id, sessions.subQueueId));
}
export type SessionView = Awaited<ReturnType<typeof findSessionViews>>[number];

export async function findSessionViews(db: Queryable, ids: string[]) {
  if (ids.length === 0) return [];
  return sessionViewQuery(db)
    .where(inArray(sessions.id, ids))
    .orderBy(asc(sessions.startsAt), asc(sessions.id));
}

export async function findSessionView(db: Queryable, id: string) {
  const [row] = await findSessionViews(db, [id]);
  return row;
}

export async function lockSession(tx: Tx, id: string) {
  const [row] = await tx.select().from(sessions).where(eq(sessions.id, id)).for('update');
  return row;
}

/** This session and the later ones of its series (by start instant), locked. */
export async function lockSeriesFrom(tx: Tx, seriesId: string, startsAt: Date) {
  return tx
    .select()
    .from(sessions)
    .where(and(eq(sessions.seriesId, seriesId), gte(sessions.startsAt, startsAt)))
    .orderBy(asc(sessions.startsAt))
    .for('update');
}

export async function updateSession(tx: Tx, id: string, changes: Partial<Omit<NewSession, 'id'>>) {
  const [row] = await tx.update(sessions).set(changes).where(eq(sessions.id, id)).returning();
  if (!row) throw new Error('session vanished while updating');
  return row;
}

export async function deleteSessions(tx: Tx, ids: string[]) {
  if (ids.length === 0) return;
  await tx.delete(sessions).where(inArray(sessions.id, ids));
}

/** Sessions (of `ids`) with at least one booked slot. */
export async function sessionsWithBookings(db: Queryable, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectDistinct({ id: sessionServices.sessionId })
    .from(slots)
    .innerJoin(sessionServices, eq(sessionServices.id, slots.sessionServiceId))
    .where(and(inArray(sessionServices.sessionId, ids), gt(slots.bookedCount, 0)));
  return rows.map((row) => row.id);
}

export async function servicesOf(db: Queryable, sessionIds: string[]) {
  if (sessionIds.length === 0) return [];
  return db
    .select({ service: sessionServices, serviceTypeName: serviceTypes.name })
    .from(sessionServices)
    .innerJoin(serviceTypes, eq(serviceTypes.id, sessionServices.serviceTypeId))
    .where(inArray(sessionServices.sessionId, sessionIds))
    .orderBy(asc(sessionServices.createdAt), asc(sessionServices.id));
}

export async function findService(db: Queryable, serviceId: string) {
  const [row] = await db
    .select({ service: sessionServices, serviceTypeName: serviceTypes.name })
    .from(sessionServices)
    .innerJoin(serviceTypes, eq(serviceTypes.id, sessionServices.serviceTypeId))
    .where(eq(sessionServices.id, serviceId))
    .limit(1);
  return row;
}

export async function slotCounts(db: Queryable, serviceIds: string[]) {
  if (serviceIds.length === 0) return new Map<string, number>();
  const rows = await db
    .select({ id: slots.sessionServiceId, count: sql<number>`count(*)::int` })
    .from(slots)
    .where(inArray(slots.sessionServiceId, serviceIds))
    .groupBy(slots.sessionServiceId);
  return new Map(rows.map((row) => [row.id, Number(row.count)]));
}

export async function slotsOf(db: Queryable, serviceId: string) {
  return db
    .select()
    .from(slots)
    .where(eq(slots.sessionServiceId, serviceId))
    .orderBy(asc(slots.slotNo));
}

export async function setSlotsStatus(
  tx: Tx,
  serviceId: string,
  slotNos: number[],
  status: 'open' | 'blocked',
) {
  return tx
    .update(slots)
    .set({ status })
    .where(and(eq(slots.sessionServiceId, serviceId), inArray(slots.slotNo, slotNos)))
    .returning({ slotNo: slots.slotNo });
}

/** Companies where the user is an active member, with the role. */
export async function membershipsOf(db: Queryable, userId: string) {
  return db
    .select({ companyId: companyUsers.companyId, role: companyUsers.role })
    .from(companyUsers)
    .where(and(eq(companyUsers.userId, userId), eq(companyUsers.status, 'active')));
}

export type SessionFilter = {
  queueId?: string | undefined;
  companyId?: string | undefined;
  subQueueId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  statuses?: readonly SessionStatusValue[] | undefined;
  /** With `from` unset: sessions from today in this zone, or in each session's own zone. */
  todayZone?: string | undefined;
  now: Date;
  /** Companies whose sessions the caller sees in full; others only as the public does. */
  memberCompanyIds: string[];
  /** Queue visibilities the public sees here (unlisted: a queue opened by its link). */
  visibilities: ReadonlyArray<'public' | 'unlisted' | 'private'>;
  /** Private queues whose sessions are candidates too (the access rule then decides). */
  privateQueueIds?: readonly string[];
  limit: number;
  offset: number;
};

/**
 * Sessions by filter. Members of the owning company see every session; everyone else only
 * sessions of active queues of the given visibilities that are neither cancelled nor
 * closed and have not ended yet.
 */
export async function querySessions(db: Queryable, filter: SessionFilter) {
  const conditions: SQL[] = [];
  if (filter.queueId) conditions.push(eq(sessions.queueId, filter.queueId));
  if (filter.companyId) conditions.push(eq(queues.companyId, filter.companyId));
  if (filter.subQueueId) conditions.push(eq(sessions.subQueueId, filter.subQueueId));
  if (filter.from) conditions.push(gte(sessions.date, filter.from));
  else conditions.push(sql`${sessions.date} >= ${todayIn(filter)}`);
  if (filter.to) conditions.push(lte(sessions.date, filter.to));
  if (filter.statuses && filter.statuses.length > 0) {
    conditions.push(inArray(sessions.status, [...filter.statuses]));
  }
  const privateOnes = filter.privateQueueIds ?? [];
  const listed = inArray(queues.visibility, [...filter.visibilities]);
  const publicSession = and(
    eq(queues.status, 'active'),
    privateOnes.length > 0
      ? (sql`(${listed} or ${inArray(queues.id, [...privateOnes])})` as SQL)
      : listed,
    notInArray(sessions.status, ['cancelled', 'closed']),
    gt(sessions.endsAt, filter.now),
  ) as SQL;
  conditions.push(
    filter.memberCompanyIds.length > 0
      ? (sql`(${inArray(queues.companyId, filter.memberCompanyIds)} or ${publicSession})` as SQL)
      : publicSession,
  );
  return sessionViewQuery(db)
    .where(and(...conditions))
    .orderBy(asc(sessions.startsAt), asc(sessions.id))
    .limit(filter.limit)
    .offset(filter.offset);
}

function todayIn(filter: { todayZone?: string | undefined; now: Date }) {
  const zone = filter.todayZone ? sql`${filter.todayZone}` : sql`${sessions.timezone}`;
  return sql`(${filter.now.toISOString()}::timestamptz at time zone ${zone})::date`;
}

/**
 * "My sessions" on a day: the sessions of the given sub-queues and of the given companies'
 * queues. `date` unset means today in `todayZone`, or in each session's own zone.
 */
export async function sessionsOnDay(
  db: Queryable,
  options: {
    subQueueIds: string[];
    companyIds: string[];
    date?: string | undefined;
    todayZone?: string | undefined;
    now: Date;
  },
) {
  const scopes: SQL[] = [];
  if (options.subQueueIds.length > 0)
    scopes.push(inArray(sessions.subQueueId, options.subQueueIds));
  if (options.companyIds.length > 0) scopes.push(inArray(queues.companyId, options.companyIds));
  if (scopes.length === 0) return [];
  const day = options.date ? sql`${options.date}::date` : todayIn(options);
  return sessionViewQuery(db)
    .where(and(sql`${sessions.date} = ${day}`, sql`(${sql.join(scopes, sql` or `)})`))
    .orderBy(asc(sessions.startsAt), asc(sessions.id));
}
