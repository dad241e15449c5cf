import type { ReportGranularity } from '@upnext/contract/reports';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { companies } from '../../db/schema/companies.ts';
import { meetings } from '../../db/schema/meetings.ts';
import { queues, subQueues } from '../../db/schema/queues.ts';
import { sessions } from '../../db/schema/sessions.ts';
import { isVisit, queueTokens, timedVisit, tokenWaitSeconds } from '../../db/schema/tokens.ts';
import { addDays } from '../../lib/dates.ts';

type Queryable = Db | Tx;

export type ReportScope = {
  companyId: string;
  timezone: string;
  queueId: string | null;
  subQueueId: string | null;
  from: string;
  to: string;
};

export async function companyTimezone(db: Queryable, companyId: string) {
  const [row] = await db
    .select({ timezone: companies.timezone })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row?.timezone;
}

type ReportQueue = {
  id: string;
  name: string;
  online: boolean;
  archived: boolean;
  subQueues: { id: string; name: string }[];
};

/** The company's queues (archived too: their history is reported) with their sub-queues. */
export async function queuesOf(db: Queryable, companyId: string): Promise<ReportQueue[]> {
  const rows = await db
    .select({
      id: queues.id,
      name: queues.name,
      online: queues.online,
      status: queues.status,
      subQueueId: subQueues.id,
      subQueueName: subQueues.name,
    })
    .from(queues)
    .leftJoin(subQueues, eq(subQueues.queueId, queues.id))
    .where(eq(queues.companyId, companyId))
    .orderBy(asc(queues.name), asc(queues.id), asc(subQueues.name), asc(subQueues.id));
  const byId = new Map<string, ReportQueue>();
  for (const row of rows) {
    let queue = byId.get(row.id);
    if (!queue) {
      queue = {
        id: row.id,
        name: row.name,
        online: row.online,
        archived: row.status === 'archived',
        subQueues: [],
      };
      byId.set(row.id, queue);
    }
    if (row.subQueueId !== null && row.subQueueName !== null) {
      queue.subQueues.push({ id: row.subQueueId, name: row.subQueueName });
    }
  }
  return [...byId.values()];
}

/**
 * The visits of the scope and period, one row each, with the local period they fall in. A
 * visit's instant is its slot's start for a booking, its joining for a walk-in (its session's
 * start when taken earlier); its day is that instant's date in the company's zone.
 */
function visitsOf(db: Queryable, scope: ReportScope, granularity: ReportGranularity) {
  const visitAt = sql`coalesce(${queueTokens.slotStartsAt}, greatest(${queueTokens.joinedAt}, ${sessions.startsAt}))`;
  const local = sql`(${visitAt} at time zone ${scope.timezone})`;
  const inScope: SQL[] = [
    eq(queues.companyId, scope.companyId),
    // Coarse and indexed (sessions by queue and local date); the visit's own day decides.
    sql`${sessions.date} between ${addDays(scope.from, -1)} and ${addDays(scope.to, 1)}`,
    sql`${local}::date between ${scope.from} and ${scope.to}`,
    isVisit,
  ];
  if (scope.queueId) inScope.push(eq(sessions.queueId, scope.queueId));
  if (scope.subQueueId) inScope.push(eq(sessions.subQueueId, scope.subQueueId));
  // A visit is one consultation however often it was rung (billing counts it so too).
  const calls = db
    .select({
      tokenId: meetings.tokenId,
      held: sql<boolean>`bool_or(${meetings.answeredAt} is not null)`.as('held'),
    })
    .from(meetings)
    .groupBy(meetings.tokenId)
    .as('calls');
  return db.$with('visits').as(
    db
      .select({
        start: sql<string | null>`to_char(date_trunc(${granularity}, ${local}), 'YYYY-MM-DD')`.as(
          'start',
        ),
        weekday: sql<number>`extract(isodow from ${local})::int`.as('weekday'),
        hour: sql<number>`extract(hour from ${local})::int`.as('hour'),
        status: queueTokens.status,
        kind: queueTokens.kind,
        timed: sql<boolean>`coalesce(${timedVisit}, false)`.as('timed'),
        wait: sql<number>`${tokenWaitSeconds}`.as('wait'),
        service: queueTokens.serviceSeconds,
        held: calls.held,
      })
      .from(queueTokens)
      .innerJoin(sessions, eq(sessions.id, queueTokens.sessionId))
      .innerJoin(queues, eq(queues.id, sessions.queueId))
      .leftJoin(calls, eq(calls.tokenId, queueTokens.id))
      .where(and(...inScope)),
  );
}

/** Every figure of the report, for the whole period (`start` null) and per period. */
export async function reportFigures(
  db: Queryable,
  scope: ReportScope,
  granularity: ReportGranularity,
) {
  const visits = visitsOf(db, scope, granularity);
  const count = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
  // Over the timed visits only (served, service time recorded), rounded to a tenth of a second.
  const timed = (aggregate: SQL) =>
    sql<number | null>`round((${aggregate} filter (where ${visits.timed}))::numeric, 1)::float8`;
  const distribution = (column: SQL) => ({
    average: timed(sql`avg(${column})`),
    median: timed(sql`percentile_cont(0.5) within group (order by ${column})`),
    p90: timed(sql`percentile_cont(0.9) within group (order by ${column})`),
  });
  const rows = await db
    .with(visits)
    .select({
      start: visits.start,
      visits: sql<number>`count(*)::int`,
      served: count(sql`${visits.status} = 'served'`),
      noShows: count(sql`${visits.status} = 'no_show'`),
      cancelled: count(sql`${visits.status} = 'cancelled'`),
      walkIns: count(sql`${visits.kind} = 'walk_in'`),
      bookings: count(sql`${visits.kind} = 'booking'`),
      consultationsHeld: count(sql`${visits.held}`),
      consultationsUnanswered: count(sql`not ${visits.held}`),
      waitSeconds: distribution(sql`${visits.wait}`),
      serviceSeconds: distribution(sql`${visits.service}`),
    })
    .from(visits)
    .groupBy(sql`grouping sets ((${visits.start}), ())`);
  return rows;
}

/** Visits that came (not cancelled) by ISO weekday and hour of their local time. */
export async function busiestHours(db: Queryable, scope: ReportScope) {
  const visits = visitsOf(db, scope, 'day');
  return db
    .with(visits)
    .select({ weekday: visits.weekday, hour: visits.hour, visits: sql<number>`count(*)::int` })
    .from(visits)
    .where(sql`${visits.status} <> 'cancelled'`)
    .groupBy(visits.weekday, visits.hour)
    .orderBy(visits.weekday, visits.hour);
}
