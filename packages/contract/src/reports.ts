import { z } from 'zod';
import { idSchema } from './common.ts';
import { companyParamsSchema } from './companies.ts';
import { endpoint, signedInErrors } from './endpoint.ts';
import { localDateSchema } from './sessions.ts';

/**
 * A company's reports (issue 16): what its queues did over a period, counted per day, week
 * (from Monday) or month of the company's time zone, for the whole company, one queue or one
 * sub-queue. A visit belongs to the local day of its visit: a booking's slot start, a walk-in's
 * joining (or its session's start, when taken before the session began).
 */
export const reportGranularities = ['day', 'week', 'month'] as const;
export type ReportGranularity = (typeof reportGranularities)[number];

/** The longest period one report covers, in days (a year, leap day included). */
export const REPORT_MAX_DAYS = 366;

/** Days from `from` to `to`, both included (`YYYY-MM-DD`, free of time zones). */
export function daysInPeriod(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
}

/**
 * What is wrong with a period, or `null`: the one rule of the server (400 `invalid_period`)
 * and of the report form.
 */
export function periodProblem(from: string, to: string): 'reversed' | 'too_long' | null {
  const days = daysInPeriod(from, to);
  if (days < 1) return 'reversed';
  return days > REPORT_MAX_DAYS ? 'too_long' : null;
}

export const reportQuerySchema = z.object({
  from: localDateSchema,
  to: localDateSchema,
  granularity: z.enum(reportGranularities).default('day'),
  /** Narrow to one queue... */
  queueId: idSchema.optional(),
  /** ...or one of its sub-queues (its queue is implied). */
  subQueueId: idSchema.optional(),
});

/** Seconds, over served visits whose service time was recorded; `null` without any. */
const distributionSchema = z.object({
  average: z.number().nullable(),
  median: z.number().nullable(),
  p90: z.number().nullable(),
});

export const reportFiguresSchema = z
  .object({
    /** Every token and booking of the period, whatever became of it. */
    visits: z.int(),
    served: z.int(),
    noShows: z.int(),
    cancelled: z.int(),
    walkIns: z.int(),
    bookings: z.int(),
    /** Joined to called, as the estimated wait counts it. */
    waitSeconds: distributionSchema,
    serviceSeconds: distributionSchema,
    /** Video consultations: visits whose call was answered... */
    consultationsHeld: z.int(),
    /** ...and visits rung but never answered (declined or missed). */
    consultationsUnanswered: z.int(),
  })
  .meta({ id: 'ReportFigures' });
export type ReportFigures = z.infer<typeof reportFiguresSchema>;

export const reportSchema = z
  .object({
    companyId: idSchema,
    /** The company's zone, in which days, weeks, months and hours are counted. */
    timezone: z.string(),
    from: localDateSchema,
    to: localDateSchema,
    granularity: z.enum(reportGranularities),
    queueId: idSchema.nullable(),
    subQueueId: idSchema.nullable(),
    /** Whether the scope holds a queue with video consultations. */
    video: z.boolean(),
    totals: reportFiguresSchema,
    /** One row per day, week or month of the period, in order, empty ones included. */
    periods: z.array(reportFiguresSchema.extend({ start: localDateSchema })),
    /** Visits that came (not cancelled) by weekday (1 Monday ... 7 Sunday) and hour; only non-zero cells. */
    busiestHours: z.array(
      z.object({ weekday: z.int().min(1).max(7), hour: z.int().min(0).max(23), visits: z.int() }),
    ),
    /** What the report can be narrowed to: the company's queues and their sub-queues. */
    queues: z.array(
      z.object({
        id: idSchema,
        name: z.string(),
        online: z.boolean(),
        archived: z.boolean(),
        subQueues: z.array(z.object({ id: idSchema, name: z.string() })),
      }),
    ),
  })
  .meta({ id: 'Report' });
export type Report = z.infer<typeof reportSchema>;

export const reportEndpoints = {
  getReport: endpoint({
    method: 'GET',
    path: '/company/:companyId/reports',
    tag: 'reports',
    summary: 'Visits, waits, service times, no-shows and busiest hours over a period (members)',
    description: `Counted in the company's time zone per day, week (from Monday) or month, for the company, one queue (\`queueId\`) or one sub-queue (\`subQueueId\`). A period runs from \`from\` to \`to\`, both included, at most ${REPORT_MAX_DAYS} days; a reversed or longer one is 400 \`invalid_period\`. Wait and service times are those of served visits with a recorded service time, as the estimated wait uses them. A queue or sub-queue of another company is \`not_found\`.`,
    params: companyParamsSchema,
    query: reportQuerySchema,
    responses: { 200: reportSchema },
    errors: [...signedInErrors, 'not_found', 'invalid_period'],
  }),
};
