import { z } from 'zod';
import { idSchema, timestampSchema } from './common.ts';
import { companyParamsSchema, companyPlans } from './companies.ts';
import { endpoint, signedInErrors } from './endpoint.ts';
import { planStatuses } from './payments.ts';
import { planResources } from './plans.ts';

/**
 * A company's plan as its Billing settings show it: the plan and its billing state, each
 * limit of the plan table (`plans.ts`) and what the company uses of it now (this calendar
 * month, in the company's time zone, for the monthly ones).
 */
export const planUsageSchema = z
  .object({
    resource: z.enum(planResources),
    /** `null`: unlimited. 0: not included in the plan. */
    limit: z.number().int().nullable(),
    used: z.number().int(),
    /** Counted per calendar month (sessions, tokens, video); otherwise what exists now. */
    monthly: z.boolean(),
  })
  .meta({ id: 'PlanUsage' });
export type PlanUsage = z.infer<typeof planUsageSchema>;

export const companyBillingSchema = z
  .object({
    companyId: idSchema,
    plan: z.enum(companyPlans),
    planStatus: z.enum(planStatuses),
    /** End of the paid period (renewal, or the end of a cancelled plan); null on Free. */
    planRenewsAt: timestampSchema.nullable(),
    planCancelsAtPeriodEnd: z.boolean(),
    /** The plan's price per month in minor units of `currency`. */
    monthlyPriceMinor: z.number().int(),
    currency: z.string(),
    /** The calendar month the monthly counts cover, `YYYY-MM` in `timezone`. */
    month: z.string(),
    timezone: z.string(),
    usage: z.array(planUsageSchema),
  })
  .meta({ id: 'CompanyBilling' });
export type CompanyBilling = z.infer<typeof companyBillingSchema>;

/** `details` of a `plan_limit_reached` refusal (409). */
export const planLimitDetailsSchema = z.object({
  resource: z.enum(planResources),
  limit: z.number().int(),
  plan: z.enum(companyPlans),
  used: z.number().int(),
});
export type PlanLimitDetails = z.infer<typeof planLimitDetailsSchema>;

export const billingEndpoints = {
  getCompanyBilling: endpoint({
    method: 'GET',
    path: '/company/:companyId/billing',
    tag: 'companies',
    summary: "The company's plan, its limits and this month's usage (owner, admin)",
    description:
      'Limits come from the plan table the pricing page shows; the server refuses what would go past one with 409 `plan_limit_reached` (`details: { resource, limit, plan, used }`). A company back on Free keeps everything it has; only creating more is refused.',
    params: companyParamsSchema,
    responses: { 200: companyBillingSchema },
    errors: [...signedInErrors, 'not_found'],
  }),
};
