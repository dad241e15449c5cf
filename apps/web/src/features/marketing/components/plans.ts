/**
 * The plans and their limits: the single source of every number the pricing page shows
 * (cards, comparison table and FAQ), so the page can never contradict itself.
 * Words live in `locales/en/marketing.json` under `pricing.*`.
 */
export type PlanId = 'free' | 'pro' | 'business';

export const planIds: readonly PlanId[] = ['free', 'pro', 'business'];

/** A limit is a number, or `null` for "unlimited". */
export type Limit = number | null;

export interface Plan {
  id: PlanId;
  /** Monthly price in whole euro, excluding VAT. */
  monthlyPrice: number;
  highlighted: boolean;
  queues: Limit;
  staffSeats: number;
  tokensPerMonth: number;
  locations: number;
  displayBoards: Limit;
  /** Video consultations per month; 0 means not included. */
  videoConsultations: Limit;
  smsCredits: number;
  onlinePayments: boolean;
  api: boolean;
  /** Months of history in reports and of token, booking and meeting records. */
  retentionMonths: number;
  sso: boolean;
  uptimeSla: boolean;
}

export const plans: Record<PlanId, Plan> = {
  free: {
    id: 'free',
    monthlyPrice: 0,
    highlighted: false,
    queues: 1,
    staffSeats: 2,
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
    highlighted: true,
    queues: 10,
    staffSeats: 10,
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
    highlighted: false,
    queues: null,
    staffSeats: 50,
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

/** Add-ons, in euro excluding VAT. */
export const addOns = {
  /** Price of 100 extra SMS credits (Pro and Business). */
  smsPackPrice: 4,
  smsPackSize: 100,
  /** Price of one extra staff seat per month (Business). */
  extraSeatPrice: 6,
  /** Share of a monthly limit at which the owner is warned by email. */
  warningThresholdPercent: 80,
  /** Guaranteed monthly uptime on Business. */
  uptimePercent: 99.9,
  /** Days a company can still export its data after cancelling. */
  exportDays: 30,
} as const;

export const currency = 'EUR';
