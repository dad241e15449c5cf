import type { CompanyPlan } from './companies.ts';

/**
 * The plans and their limits: the one table the pricing page shows (cards, comparison table
 * and FAQ) and the server enforces (modules/billing), so the page can never promise what the
 * server refuses. Plain data without zod, so the public pages stay light. Words live in the
 * web's `locales/en/marketing.json` under `pricing.*`.
 */
export type PlanId = CompanyPlan;

export const planIds: readonly PlanId[] = ['free', 'pro', 'business'];

/** A limit is a number, or `null` for "unlimited". */
export type Limit = number | null;

export interface Plan {
  id: PlanId;
  /** Monthly price in whole euro, excluding VAT, as the pricing page shows it. */
  monthlyPrice: number;
  /** The same price in minor units (cents) of `planCurrency`: what a plan checkout charges. */
  monthlyPriceMinor: number;
  highlighted: boolean;
  /** Active (not archived) queues. */
  queues: Limit;
  /** Members holding a seat: active and invited ones, owners included (disabled ones free theirs). */
  staffSeats: number;
  /** Sessions scheduled per calendar month (the company's time zone); cancelled ones do not count. */
  sessionsPerMonth: Limit;
  /**
   * Walk-in tokens and bookings issued per calendar month, whatever became of them; one
   * released because its payment was not completed in time does not count.
   */
  tokensPerMonth: number;
  locations: number;
  displayBoards: Limit;
  /** Video consultations (visitors rung at least once) per month; 0 means not included. */
  videoConsultations: Limit;
  smsCredits: number;
  /** Queues and service types may have a price that visitors pay online. */
  onlinePayments: boolean;
  api: boolean;
  /** Months of history in reports and of token, booking and meeting records. */
  retentionMonths: number;
  sso: boolean;
  uptimeSla: boolean;
}

/** Plans are priced and charged in euro. */
export const planCurrency = 'EUR';

export const plans: Record<PlanId, Plan> = {
  free: {
    id: 'free',
    monthlyPrice: 0,
    monthlyPriceMinor: 0,
    highlighted: false,
    queues: 1,
    staffSeats: 2,
    sessionsPerMonth: 60,
    tokensPerMonth: 300,
    locations: 1,
    displayBoards: 1,
    videoConsultations: 0,
    smsCredits: 0,
    onlinePayments: false,
    api: false,
    retentionMonths: 3,
    sso: false,
    uptimeSla: false,
  },
  pro: {
    id: 'pro',
    monthlyPrice: 39,
    monthlyPriceMinor: 3900,
    highlighted: true,
    queues: 10,
    staffSeats: 10,
    sessionsPerMonth: 1000,
    tokensPerMonth: 5000,
    locations: 3,
    displayBoards: 10,
    videoConsultations: 500,
    smsCredits: 500,
    onlinePayments: true,
    api: true,
    retentionMonths: 12,
    sso: false,
    uptimeSla: false,
  },
  business: {
    id: 'business',
    monthlyPrice: 129,
    monthlyPriceMinor: 12900,
    highlighted: false,
    queues: null,
    staffSeats: 50,
    sessionsPerMonth: null,
    tokensPerMonth: 50000,
    locations: 25,
    displayBoards: null,
    videoConsultations: null,
    smsCredits: 3000,
    onlinePayments: true,
    api: true,
    retentionMonths: 36,
    sso: true,
    uptimeSla: true,
  },
};

/**
 * What the server counts and refuses past a plan's limit (`plan_limit_reached`, with
 * `details: { resource, limit, plan, used }`). `paid_queues` are queues with a price or a
 * priced service type: unlimited with online payments, none without.
 */
export const planResources = [
  'queues',
  'staff',
  'sessions',
  'tokens',
  'video',
  'paid_queues',
] as const;
export type PlanResource = (typeof planResources)[number];

/** Whether a resource is counted per calendar month (the rest count what exists now). */
export const monthlyResources: readonly PlanResource[] = ['sessions', 'tokens', 'video'];

/** A plan's limit for a resource; `null` is unlimited. */
export function planLimit(plan: Plan, resource: PlanResource): Limit {
  switch (resource) {
    case 'queues':
      return plan.queues;
    case 'staff':
      return plan.staffSeats;
    case 'sessions':
      return plan.sessionsPerMonth;
    case 'tokens':
      return plan.tokensPerMonth;
    case 'video':
      return plan.videoConsultations;
    case 'paid_queues':
      return plan.onlinePayments ? null : 0;
  }
}

/** Add-ons, in euro excluding VAT. */
export const addOns = {
  /** Price of 100 extra SMS credits (Pro and Business). */
  smsPackPrice: 4,
  smsPackSize: 100,
  /** Price of one extra staff seat per month (Business). */
  extraSeatPrice: 6,
  /** Guaranteed monthly uptime on Business. */
  uptimePercent: 99.9,
  /** Days a company can still export its data after cancelling. */
  exportDays: 30,
} as const;
