import {
  and,
  eq,
  gt,
  inArray,
  isNotNull,
  ne,
  or,
  type Placeholder,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { companies, companyTokenMonths, companyUsers } from '../../db/schema/companies.ts';
import { meetings } from '../../db/schema/meetings.ts';
import { queues, serviceTypes } from '../../db/schema/queues.ts';
import { sessions } from '../../db/schema/sessions.ts';

type Queryable = Db | Tx;

/** A company's plan and its billing state: what limits, checkouts and the sweep read and change. */
export const billingColumns = {
  id: companies.id,
  name: companies.name,
  plan: companies.plan,
  timezone: companies.timezone,
  planStatus: companies.planStatus,
  planRenewsAt: companies.planRenewsAt,
  planCancelsAtPeriodEnd: companies.planCancelsAtPeriodEnd,
  planSubscriptionRef: companies.planSubscriptionRef,
};
export type CompanyBilling = Pick<typeof companies.$inferSelect, keyof typeof billingColumns>;

export async function findCompanyBilling(
  db: Queryable,
  companyId: string,
): Promise<CompanyBilling | undefined> {
  const [row] = await db
    .select(billingColumns)
    .from(companies)
    .where(eq(companies.id, companyId))
    .limit(1);
  return row;
}

const companyBillingLocked = preparedStatement('lock_company_billing', (db) =>
  db
    .select(billingColumns)
    .from(companies)
    .where(eq(companies.id, sql.placeholder('companyId')))
    // Not `for update`: rows referring to the company (its queues, members, payments) may
    // still be inserted meanwhile (their foreign key takes a key-share lock).
    .for('no key update'),
);

/**
 * Locks the company's row for the rest of the transaction: every count-then-create against
 * its plan goes one at a time, so two requests at once never both take the last place, and a
 * plan change (which updates this row) waits for them. A count must be read by a later
 * statement: one that waited for this lock still sees the data as it was when it began.
 */
export async function lockCompanyBilling(
  tx: Queryable,
  companyId: string,
): Promise<CompanyBilling | undefined> {
  const [row] = await companyBillingLocked(tx, { companyId });
  return row;
}

export async function updateCompanyBilling(
  tx: Queryable,
  companyId: string,
  values: Partial<Omit<CompanyBilling, 'id' | 'name' | 'timezone'>> & { updatedAt: Date },
): Promise<CompanyBilling> {
  const [row] = await tx
    .update(companies)
    .set(values)
    .where(eq(companies.id, companyId))
    .returning(billingColumns);
  if (!row) throw new Error(`company ${companyId} vanished`);
  return row;
}

async function count(query: PromiseLike<Array<{ n: number }>>): Promise<number> {
  const [row] = await query;
  return Number(row?.n ?? 0);
}

const n = sql<number>`count(*)::int`;

/** The first instant of the calendar month `now` falls in, as a wall clock in `timezone` shows it. */
const monthStart = (now: Date, timezone: string) =>
  sql`(date_trunc('month', ${now.toISOString()}::timestamptz at time zone ${timezone}) at time zone ${timezone})`;
const monthEnd = (now: Date, timezone: string) =>
  sql`((date_trunc('month', ${now.toISOString()}::timestamptz at time zone ${timezone}) + interval '1 month') at time zone ${timezone})`;
const withinMonth = (column: SQLWrapper, now: Date, timezone: string) =>
  sql`${column} >= ${monthStart(now, timezone)} and ${column} < ${monthEnd(now, timezone)}`;

/** Queues that are not archived. */
export function countActiveQueues(db: Queryable, companyId: string): Promise<number> {
  return count(
    db
      .select({ n })
      .from(queues)
      .where(and(eq(queues.companyId, companyId), eq(queues.status, 'active'))),
  );
}

/** Members holding a seat: active and invited (disabled ones hold none). */
export function countSeats(db: Queryable, companyId: string): Promise<number> {
  return count(
    db
      .select({ n })
      .from(companyUsers)
      .where(
        and(
          eq(companyUsers.companyId, companyId),
          inArray(companyUsers.status, ['active', 'invited']),
        ),
      ),
  );
}

/**
 * Sessions (not cancelled) per calendar month `YYYY-MM` of their local date, for the months
 * asked. A session's date is its local date in the company's zone (it is scheduled in it).
 */
export async function countSessionsByMonth(
  db: Queryable,
  companyId: string,
  months: readonly string[],
): Promise<Map<string, number>> {
  if (months.length === 0) return new Map();
  const month = sql<string>`to_char(${sessions.date}, 'YYYY-MM')`;
  const rows = await db
    .select({ month, n })
    .from(sessions)
    .innerJoin(queues, eq(queues.id, sessions.queueId))
    .where(
      and(
        eq(queues.companyId, companyId),
        ne(sessions.status, 'cancelled'),
        inArray(month, [...months]),
      ),
    )
    .groupBy(month);
  return new Map(rows.map((row) => [row.month, Number(row.n)]));
}

/**
 * The row of `company_token_months` counting the tokens of the month an instant falls in, in
 * the company's zone (`YYYY-MM`, as the counting trigger of migration 0013 keys it).
 */
export const tokenMonthRow = (
  companyId: SQLWrapper | Placeholder,
  instant: SQLWrapper | Placeholder,
  timezone: SQLWrapper | Placeholder,
) =>
  and(
    eq(companyTokenMonths.companyId, companyId),
    eq(
      companyTokenMonths.month,
      sql`to_char(${instant}::timestamptz at time zone ${timezone}, 'YYYY-MM')`,
    ),
  );

/**
 * Tokens and bookings issued in the calendar month of `now` in `timezone`, whatever became of
 * them, except those released because their payment was not completed in time: the counter the
 * database keeps per company and month (`company_token_months`, migration 0009), one row
 * instead of the month's tokens. Every token issue reads it (`assertWithinPlan`), most of them
 * with their session's lock (`lockSessionForIssue`).
 */
const tokensThisMonth = preparedStatement('month_tokens', (db) =>
  db
    .select({ tokens: companyTokenMonths.tokens })
    .from(companyTokenMonths)
    .where(
      tokenMonthRow(
        sql.placeholder('companyId'),
        sql.placeholder('now'),
        sql.placeholder('timezone'),
      ),
    ),
);

export async function countTokensThisMonth(
  db: Queryable,
  companyId: string,
  timezone: string,
  now: Date,
): Promise<number> {
  const [row] = await tokensThisMonth(db, { companyId, timezone, now: now.toISOString() });
  return row?.tokens ?? 0;
}

/**
 * Video consultations this calendar month: visitors' tokens rung at least once (a second ring
 * of the same visit is the same consultation). `exceptTokenId` leaves one token out, so the
 * caller can ask what ringing it would add.
 */
export function countVideoThisMonth(
  db: Queryable,
  companyId: string,
  timezone: string,
  now: Date,
  exceptTokenId?: string,
): Promise<number> {
  const where = [eq(queues.companyId, companyId), withinMonth(meetings.createdAt, now, timezone)];
  if (exceptTokenId) where.push(ne(meetings.tokenId, exceptTokenId));
  return count(
    db
      .select({ n: sql<number>`count(distinct ${meetings.tokenId})::int` })
      .from(meetings)
      .innerJoin(sessions, eq(sessions.id, meetings.sessionId))
      .innerJoin(queues, eq(queues.id, sessions.queueId))
      .where(and(...where)),
  );
}

/** Active queues that charge visitors: a price of their own, or an active priced service type. */
export function countPaidQueues(db: Queryable, companyId: string): Promise<number> {
  const pricedType = db
    .select({ one: sql`1` })
    .from(serviceTypes)
    .where(
      and(
        eq(serviceTypes.queueId, queues.id),
        eq(serviceTypes.active, true),
        gt(serviceTypes.priceMinor, 0),
      ),
    );
  return count(
    db
      .select({ n })
      .from(queues)
      .where(
        and(
          eq(queues.companyId, companyId),
          eq(queues.status, 'active'),
          or(isNotNull(queues.priceMinor), sql`exists ${pricedType}`),
        ),
      ),
  );
}
