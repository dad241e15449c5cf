import type { CompanyBilling, PlanUsage } from '@upnext/contract/billing';
import {
  type Limit,
  monthlyResources,
  type PlanResource,
  planCurrency,
  planLimit,
  planResources,
  plans,
} from '@upnext/contract/plans';
import type { Db, Tx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { localDate } from '../../lib/dates.ts';
import { AppError } from '../../lib/errors.ts';
import { iso } from '../../lib/rows.ts';
import type { Caller } from '../access/caller.ts';
import { canReadBilling } from './billing.policy.ts';
import * as repo from './billing.repository.ts';

type Queryable = Db | Tx;
export type BillingDeps = { db: Db; clock: Clock };

/**
 * What a creating service adds, per resource: a number of queues, seats, tokens or paid
 * queues; the local dates (`YYYY-MM-DD`, the company's zone) of the sessions it schedules, so
 * a series is counted whole, month by month; the token a video call rings (a second call of
 * the same visit adds nothing), or `null` for a queue set to offer video (allowed when the
 * plan includes any video at all).
 */
export type Adding = {
  queues: number;
  staff: number;
  sessions: readonly string[];
  tokens: number;
  video: string | null;
  paid_queues: number;
};

const planNames = { free: 'Free', pro: 'Pro', business: 'Business' } as const;

/** Why, in words for whoever is refused; a visitor taking a token never reads about plans. */
function refusal(resource: PlanResource, plan: keyof typeof planNames, limit: number): string {
  const name = planNames[plan];
  const upgrade = 'An owner can upgrade the plan in the company settings, under Billing.';
  switch (resource) {
    case 'queues':
      return `The ${name} plan includes ${limit} active queue${limit === 1 ? '' : 's'}. Archive one, or upgrade. ${upgrade}`;
    case 'staff':
      return `The ${name} plan includes ${limit} staff seat${limit === 1 ? '' : 's'} (active and invited members). Disable or remove a member, or upgrade. ${upgrade}`;
    case 'sessions':
      return `The ${name} plan includes ${limit} sessions a month, and this would go past it. ${upgrade}`;
    case 'video':
      return limit === 0
        ? `Video consultations are not included in the ${name} plan. ${upgrade}`
        : `This month's ${limit} video consultations of the ${name} plan are used. ${upgrade}`;
    case 'paid_queues':
      return `Online payments are not included in the ${name} plan, so a queue or service cannot have a price. ${upgrade}`;
    case 'tokens':
      return 'Sorry, this queue cannot take new tokens or bookings online at the moment. Please contact the company directly, or try again next month.';
  }
}

/** The plan a company is on, locked; absent companies are not found. */
async function lockedPlan(db: Queryable, companyId: string) {
  const company = await repo.lockCompanyBilling(db, companyId);
  if (!company) throw new AppError('not_found', 'No such company.');
  return company;
}

const monthOf = (isoDate: string) => isoDate.slice(0, 7);

/**
 * The one check of a company's plan, called by each creating service inside its transaction
 * before it writes: refuses with 409 `plan_limit_reached` (`details: { resource, limit, plan,
 * used }`) what would take the company past its plan's limit, so nothing is written. It locks
 * the company's row, so concurrent creations are counted one at a time. What a company
 * already has is never touched: after a downgrade or a lapse to Free, existing queues,
 * members, sessions and prices keep working; only adding more is refused.
 */
export async function assertWithinPlan<R extends PlanResource>(
  tx: Queryable,
  companyId: string,
  resource: R,
  adding: Adding[R],
  now: Date,
  /** For tokens: the plan and its month's counter as the caller's own lock statement read them. */
  locked?: LockedTokenMonth,
): Promise<void> {
  const company = locked?.company ?? (await lockedPlan(tx, companyId));
  const limit = planLimit(plans[company.plan], resource);
  if (limit === null) return;
  const refuse = (used: number): never => {
    throw new AppError('plan_limit_reached', refusal(resource, company.plan, limit), {
      resource,
      limit,
      plan: company.plan,
      used,
    });
  };
  if (resource === 'sessions') {
    const dates = adding as Adding['sessions'];
    const perMonth = new Map<string, number>();
    for (const date of dates) perMonth.set(monthOf(date), (perMonth.get(monthOf(date)) ?? 0) + 1);
    const used = await repo.countSessionsByMonth(tx, companyId, [...perMonth.keys()]);
    // A series is counted whole: one month past the limit refuses all of it.
    for (const [month, added] of perMonth) {
      const already = used.get(month) ?? 0;
      if (already + added > limit) refuse(already);
    }
    return;
  }
  if (resource === 'video') {
    const tokenId = adding as Adding['video'];
    if (limit === 0) refuse(0);
    if (tokenId === null) return;
    const others = await repo.countVideoThisMonth(tx, companyId, company.timezone, now, tokenId);
    if (others + 1 > limit) refuse(others);
    return;
  }
  const added = adding as number;
  if (added <= 0) return;
  const used =
    resource === 'tokens' && locked?.month === monthOf(localDate(now, company.timezone))
      ? locked.tokens
      : await countNow(tx, resource, companyId, company.timezone, now);
  if (used + added > limit) refuse(used);
}

/**
 * A company's plan and its token counter for one month (`YYYY-MM`), read by a token issue's
 * lock statement with both rows locked (`lockSessionForIssue`): a statement that waited for a
 * lock reads the rows it locked as they are now, so the count is current and needs no
 * statement of its own. Another month's counter (the month turned meanwhile) is read again.
 */
export type LockedTokenMonth = { company: repo.CompanyBilling; month: string; tokens: number };

/** One query per resource: what the company uses of it now (this month for the monthly ones). */
async function countNow(
  db: Queryable,
  resource: PlanResource,
  companyId: string,
  timezone: string,
  now: Date,
): Promise<number> {
  switch (resource) {
    case 'queues':
      return repo.countActiveQueues(db, companyId);
    case 'staff':
      return repo.countSeats(db, companyId);
    case 'sessions': {
      const month = monthOf(localDate(now, timezone));
      return (await repo.countSessionsByMonth(db, companyId, [month])).get(month) ?? 0;
    }
    case 'tokens':
      return repo.countTokensThisMonth(db, companyId, timezone, now);
    case 'video':
      return repo.countVideoThisMonth(db, companyId, timezone, now);
    case 'paid_queues':
      return repo.countPaidQueues(db, companyId);
  }
}

/** GET /company/{companyId}/billing: the plan, its billing state, limits and usage. */
export async function getCompanyBilling(
  deps: BillingDeps,
  caller: Caller,
  companyId: string,
): Promise<CompanyBilling> {
  await canReadBilling(deps.db, caller, companyId);
  const company = await repo.findCompanyBilling(deps.db, companyId);
  if (!company) throw new AppError('not_found', 'No such company.');
  const now = deps.clock();
  const plan = plans[company.plan];
  const usage: PlanUsage[] = [];
  for (const resource of planResources) {
    const limit: Limit = planLimit(plan, resource);
    usage.push({
      resource,
      limit,
      used: await countNow(deps.db, resource, companyId, company.timezone, now),
      monthly: monthlyResources.includes(resource),
    });
  }
  return {
    companyId,
    plan: company.plan,
    planStatus: company.planStatus,
    planRenewsAt: company.planRenewsAt ? iso(company.planRenewsAt) : null,
    planCancelsAtPeriodEnd: company.planCancelsAtPeriodEnd,
    monthlyPriceMinor: plan.monthlyPriceMinor,
    currency: planCurrency,
    month: monthOf(localDate(now, company.timezone)),
    timezone: company.timezone,
    usage,
  };
}
