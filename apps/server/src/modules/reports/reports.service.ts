import {
  periodProblem,
  REPORT_MAX_DAYS,
  type Report,
  type ReportFigures,
  type ReportGranularity,
} from '@upnext/contract/reports';
import type { Db } from '../../db/client.ts';
import { addDays, weekday } from '../../lib/dates.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../access/caller.ts';
import { canReadReports } from './reports.policy.ts';
import * as repo from './reports.repository.ts';

export type ReportsDeps = { db: Db };

type ReportInput = {
  from: string;
  to: string;
  granularity: ReportGranularity;
  queueId?: string | undefined;
  subQueueId?: string | undefined;
};

const emptyDistribution = { average: null, median: null, p90: null };
const emptyFigures: ReportFigures = {
  visits: 0,
  served: 0,
  noShows: 0,
  cancelled: 0,
  walkIns: 0,
  bookings: 0,
  waitSeconds: emptyDistribution,
  serviceSeconds: emptyDistribution,
  consultationsHeld: 0,
  consultationsUnanswered: 0,
};

/** The first day of the day, week (Monday, as PostgreSQL's `date_trunc`) or month of `date`. */
function periodStart(date: string, granularity: ReportGranularity): string {
  if (granularity === 'day') return date;
  if (granularity === 'week') return addDays(date, -((weekday(date) + 6) % 7));
  return `${date.slice(0, 8)}01`;
}

function nextPeriod(start: string, granularity: ReportGranularity): string {
  if (granularity === 'day') return addDays(start, 1);
  if (granularity === 'week') return addDays(start, 7);
  const [year, month] = start.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
}

/** Every period the report covers, so that empty days still show (as zero). */
function periodStarts(from: string, to: string, granularity: ReportGranularity): string[] {
  const starts: string[] = [];
  for (let start = periodStart(from, granularity); start <= to; ) {
    starts.push(start);
    start = nextPeriod(start, granularity);
  }
  return starts;
}

const periodMessages = {
  reversed: 'The period ends before it starts.',
  too_long: `A report covers at most ${REPORT_MAX_DAYS} days.`,
};

/** A company's report for a period and scope, in the company's time zone (members only). */
export async function getReport(
  deps: ReportsDeps,
  caller: Caller,
  companyId: string,
  input: ReportInput,
): Promise<Report> {
  await canReadReports(deps.db, caller, companyId);
  const problem = periodProblem(input.from, input.to);
  if (problem) throw new AppError('invalid_period', periodMessages[problem], { problem });
  const timezone = await repo.companyTimezone(deps.db, companyId);
  if (!timezone) throw new AppError('not_found', 'No such company.');
  const queues = await repo.queuesOf(deps.db, companyId);

  // A sub-queue implies its queue; a queue or sub-queue of another company is not found.
  const owner = input.subQueueId
    ? queues.find((q) => q.subQueues.some((sub) => sub.id === input.subQueueId))
    : undefined;
  if (input.subQueueId && (!owner || (input.queueId && input.queueId !== owner.id))) {
    throw new AppError('not_found', 'No such sub-queue.');
  }
  const queueId = owner?.id ?? input.queueId ?? null;
  if (queueId && !queues.some((q) => q.id === queueId)) {
    throw new AppError('not_found', 'No such queue.');
  }

  const scope = {
    companyId,
    timezone,
    queueId,
    subQueueId: input.subQueueId ?? null,
    from: input.from,
    to: input.to,
  };
  const [figures, hours] = await Promise.all([
    repo.reportFigures(deps.db, scope, input.granularity),
    repo.busiestHours(deps.db, scope),
  ]);
  const byStart = new Map(figures.map(({ start, ...row }) => [start, row]));
  return {
    companyId,
    timezone,
    from: input.from,
    to: input.to,
    granularity: input.granularity,
    queueId,
    subQueueId: scope.subQueueId,
    video: queues.some((q) => q.online && (queueId === null || q.id === queueId)),
    // The grouping set `()` is the whole period (its `start` is null).
    totals: byStart.get(null) ?? emptyFigures,
    periods: periodStarts(input.from, input.to, input.granularity).map((start) => ({
      start,
      ...(byStart.get(start) ?? emptyFigures),
    })),
    busiestHours: hours,
    queues,
  };
}
