import { z } from 'zod';
import { int4ParamSchema, int4Schema, textSchema } from './common.ts';
import type { CompanyPlan } from './companies.ts';
import { endpoint, signedInErrors } from './endpoint.ts';

/**
 * Payments (PRODUCT.md "Payments", spec §2 and §7 `payment-gateway/payment`): what both sides
 * share about a payment. A paid visit's token waits as `pending_payment`, holding its number
 * or slot, until the provider's signed webhook says it was paid; company plans are bought
 * through the same checkout. Endpoints are added below as they are built.
 */

/** How long a `pending_payment` token holds its place before it is released (PRODUCT.md states). */
export const PAYMENT_HOLD_MINUTES = 15;

/** A payment for one visit (a token or booking), or for a company's plan. */
export const paymentKinds = ['visit', 'plan'] as const;
export type PaymentKind = (typeof paymentKinds)[number];

/**
 * `pending`: the checkout is open. `paid`: the provider confirmed it. `failed`: declined.
 * `cancelled`: the payer left the checkout (or it was abandoned). `expired`: the hold ran out
 * before any payment.
 */
export const paymentStatuses = ['pending', 'paid', 'failed', 'cancelled', 'expired'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/** A refund's state, shown beside a paid payment once one was asked for. */
export const refundStatuses = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof refundStatuses)[number];

/** Where a checkout runs: our own sandbox (the embedded default, never in production) or Stripe. */
export const paymentProviders = ['sandbox', 'stripe'] as const;
export type PaymentProviderName = (typeof paymentProviders)[number];

/** A company plan's billing state: `past_due` while a renewal failed, before it lapses to Free. */
export const planStatuses = ['active', 'past_due', 'cancelled'] as const;
export type PlanStatus = (typeof planStatuses)[number];

export const paymentStatusSchema = z.enum(paymentStatuses);
export const refundStatusSchema = z.enum(refundStatuses);

// --- Paid plans ------------------------------------------------------------------------------

/** The plans a company buys through the checkout (their prices: `plans.ts`, the one plan table). */
export const paidPlans = ['pro', 'business'] as const satisfies readonly CompanyPlan[];
export type PaidPlan = (typeof paidPlans)[number];

// --- The sandbox checkout's test cards ------------------------------------------------------

/**
 * The sandbox checkout (the embedded default, never in production) behaves like a card
 * checkout for these numbers; any other number is refused as invalid (`invalid_card_number`),
 * and any expiry in the future and 3-4 digit CVC are accepted. Shown on the sandbox page and
 * in the docs from this one table.
 */
export const sandboxTestCards = [
  { number: '4242424242424242', outcome: 'succeeds', label: 'Payment succeeds' },
  { number: '4000000000000002', outcome: 'declined', label: 'Declined (card_declined)' },
  {
    number: '4000002760003184',
    outcome: 'requires_confirmation',
    label: 'Asks for an extra confirmation step (like 3-D Secure), then succeeds or fails',
  },
] as const;
export type SandboxCardOutcome = (typeof sandboxTestCards)[number]['outcome'];

/** The Luhn check every card number passes (12 to 19 digits; spaces and dashes ignored). */
export function luhnValid(number: string): boolean {
  const digits = number.replace(/\D/g, '');
  if (digits.length < 12 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let n = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
  }
  return sum % 10 === 0;
}

/**
 * When a card given as "MM/YY" (or "MM/YYYY") stops working: the first instant after its expiry
 * month (a card is valid to the end of that month); null when malformed.
 */
export function cardExpiryEnd(expiry: string): Date | null {
  const match = /^(\d{2})\s*\/\s*(\d{2}|\d{4})$/.exec(expiry.trim());
  const month = Number(match?.[1]);
  if (!match || month < 1 || month > 12) return null;
  const year = Number(match[2]?.length === 2 ? `20${match[2]}` : match[2]);
  return new Date(Date.UTC(year, month, 1));
}

/** The sandbox refuses a refund whose reason is exactly this (to try the failed-refund path). */
export const SANDBOX_FAILING_REFUND_REASON = 'sandbox_fail_refund';

// --- Schemas --------------------------------------------------------------------------------

const id = z.uuid();
const instant = z.iso.datetime({ offset: true });
const amount = z.int().min(0);

/** What a visit's token shows about its payment (holder and staff alike). */
export const tokenPaymentSchema = z
  .object({
    paymentId: id,
    status: paymentStatusSchema,
    amountMinor: amount,
    currency: z.string(),
    refundStatus: refundStatusSchema.nullable(),
    refundedMinor: amount,
    /** While `pending`: the token's place is held until then, and released if unpaid. */
    holdExpiresAt: instant,
    /** The open checkout to send the payer back to (null before one was asked for, or once closed). */
    checkoutUrl: z.string().nullable(),
  })
  .meta({ id: 'TokenPayment' });
export type TokenPayment = z.infer<typeof tokenPaymentSchema>;

/** A payment as its payer or the company's owner and admins see it. */
export const paymentSchema = z
  .object({
    id,
    companyId: id,
    companyName: z.string(),
    kind: z.enum(paymentKinds),
    status: paymentStatusSchema,
    provider: z.enum(paymentProviders),
    /** Before any promotion. */
    listAmountMinor: amount,
    /** What the payer is charged. */
    amountMinor: amount,
    currency: z.string(),
    promotionCode: z.string().nullable(),
    /** Why it failed, in words safe to show the payer. */
    failureReason: z.string().nullable(),
    payerEmail: z.string().nullable(),
    checkoutUrl: z.string().nullable(),
    /** A visit's hold (and the checkout) ends here. */
    expiresAt: instant,
    paidAt: instant.nullable(),
    refundStatus: refundStatusSchema.nullable(),
    refundedMinor: amount,
    refundReason: z.string().nullable(),
    /** A visit: its token (the live state is read from the token itself). */
    token: z
      .object({
        id,
        sessionId: id,
        queueId: id,
        queueName: z.string(),
        displayNumber: z.string(),
        status: z.string(),
        cancelReason: z.string().nullable(),
      })
      .nullable(),
    /** A plan payment: the plan bought. */
    plan: z.enum(paidPlans).nullable(),
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof paymentSchema>;

/**
 * `POST /payment-gateway/payment` (spec §7): pay for a `pending_payment` token (its holder),
 * with an optional promotion code; or buy a plan for a company (its owner).
 */
export const createPaymentInputSchema = z
  .union([
    z
      .object({
        tokenId: id,
        promotionCode: textSchema(32, { min: 1 }).optional(),
      })
      .strict(),
    z.object({ plan: z.enum(paidPlans), companyId: id }).strict(),
  ])
  .meta({ id: 'CreatePaymentInput' });
export type CreatePaymentInput = z.infer<typeof createPaymentInputSchema>;

export const checkoutSchema = z
  .object({
    paymentId: id,
    /**
     * Where to send the browser: the provider's checkout page, or (nothing left to pay, e.g. a
     * 100 % promotion) straight to the payment-success page.
     */
    checkoutUrl: z.string(),
    status: paymentStatusSchema,
  })
  .meta({ id: 'Checkout' });
export type Checkout = z.infer<typeof checkoutSchema>;

export const paymentParamsSchema = z.object({ paymentId: id });

export const listPaymentsQuerySchema = z.object({
  kind: z.enum(paymentKinds).optional(),
  status: paymentStatusSchema.optional(),
  /** Created at or after this instant. */
  from: instant.optional(),
  /** Created before this instant. */
  to: instant.optional(),
  /** Part of the payer's email, the token's number, the queue's name or the promotion code. */
  query: textSchema(100).optional(),
  page: int4ParamSchema.min(1).default(1),
  pageSize: int4ParamSchema.min(1).max(500).default(50),
});
export type ListPaymentsQuery = z.infer<typeof listPaymentsQuerySchema>;

export const paymentPageSchema = z
  .object({ items: z.array(paymentSchema), total: z.int(), page: z.int(), pageSize: z.int() })
  .meta({ id: 'PaymentPage' });

export const refundInputSchema = z
  .object({
    /** Default: everything not refunded yet. */
    amountMinor: int4Schema.min(1).optional(),
    reason: textSchema(200, { multiline: true }).optional(),
  })
  .strict()
  .meta({ id: 'RefundInput' });

/** A company's plan and where its billing stands. */
export const planBillingSchema = z
  .object({
    companyId: id,
    plan: z.enum(['free', 'pro', 'business']),
    planStatus: z.enum(planStatuses),
    /** End of the paid period (null on Free). */
    planRenewsAt: instant.nullable(),
    /** Cancelled by the owner: the plan stays until `planRenewsAt`, then becomes Free. */
    planCancelsAtPeriodEnd: z.boolean(),
  })
  .meta({ id: 'PlanBilling' });
export type PlanBilling = z.infer<typeof planBillingSchema>;

export const sandboxCheckoutStatuses = [
  'open',
  'requires_confirmation',
  'paid',
  'failed',
  'cancelled',
  'expired',
] as const;

/** The sandbox checkout page's view of one checkout (public: the id is its secret). */
export const sandboxCheckoutSchema = z
  .object({
    checkoutId: z.string(),
    merchantName: z.string(),
    description: z.string(),
    amountMinor: amount,
    currency: z.string(),
    mode: z.enum(['payment', 'subscription']),
    status: z.enum(sandboxCheckoutStatuses),
    /** `failed`: the card's refusal, e.g. `card_declined`. */
    failureCode: z.string().nullable(),
    expiresAt: instant,
    successUrl: z.string(),
    cancelUrl: z.string(),
    /** `requires_confirmation`: send it back with the payer's answer to `.../confirm`. */
    confirmationToken: z.string().nullable(),
  })
  .meta({ id: 'SandboxCheckout' });
export type SandboxCheckout = z.infer<typeof sandboxCheckoutSchema>;

export const sandboxCheckoutParamsSchema = z.object({
  checkoutId: z.string().regex(/^cs_sbx_[A-Za-z0-9_-]{10,200}$/),
});

export const sandboxPayInputSchema = z
  .object({
    /** Spaces allowed ("4242 4242 4242 4242"). */
    number: textSchema(30),
    /** MM/YY. */
    expiry: textSchema(7),
    cvc: textSchema(4),
    name: textSchema(100),
  })
  .strict()
  .meta({ id: 'SandboxPayInput' });
export type SandboxPayInput = z.infer<typeof sandboxPayInputSchema>;

export const sandboxConfirmInputSchema = z
  .object({ confirmationToken: textSchema(500, { min: 1 }), approve: z.boolean() })
  .strict()
  .meta({ id: 'SandboxConfirmInput' });

export const webhookParamsSchema = z.object({ provider: z.enum(paymentProviders) });

// --- Endpoints ------------------------------------------------------------------------------

const tag = 'payments';
const readErrors = [...signedInErrors, 'payment_not_found'] as const;
const checkoutErrors = ['validation_failed', 'checkout_not_found', 'checkout_closed'] as const;

export const paymentEndpoints = {
  createPayment: endpoint({
    method: 'POST',
    path: '/payment-gateway/payment',
    tag,
    summary:
      "Open a checkout: for a pending_payment token (its holder, optional promotionCode) or a company's plan (its owner); asking again answers the open one",
    description:
      "The outcome comes only from the provider's signed webhook, never from the return URL. " +
      "A visit checkout closes when the token's hold (PAYMENT_HOLD_MINUTES) ends. " +
      'A promotion that leaves nothing to pay settles the payment at once (status paid, ' +
      'checkoutUrl = the payment-success page).',
    body: createPaymentInputSchema,
    responses: { 201: checkoutSchema },
    errors: [
      ...signedInErrors,
      'not_found',
      'token_not_found',
      'payment_not_required',
      'payment_hold_expired',
      'promotion_invalid',
      'payments_unavailable',
      'plan_already_active',
    ],
  }),
  getPayment: endpoint({
    method: 'GET',
    path: '/payments/:paymentId',
    tag,
    summary:
      "A payment's real outcome (its payer, or the company's owner and admins): what /payment-success and /admin/payment-success show",
    params: paymentParamsSchema,
    responses: { 200: paymentSchema },
    errors: readErrors,
  }),
  listCompanyPayments: endpoint({
    method: 'GET',
    path: '/company/:companyId/payments',
    tag,
    summary: "A company's payments, newest first, filtered and paginated (owner, admin)",
    params: z.object({ companyId: id }),
    query: listPaymentsQuerySchema,
    responses: { 200: paymentPageSchema },
    errors: [...signedInErrors, 'not_found'],
  }),
  refundPayment: endpoint({
    method: 'POST',
    path: '/payments/:paymentId/refund',
    tag,
    summary: 'Refund a paid payment, in full by default (owner, admin)',
    params: paymentParamsSchema,
    body: refundInputSchema,
    responses: { 200: paymentSchema },
    errors: [...readErrors, 'payment_not_refundable', 'refund_failed'],
  }),
  cancelPlan: endpoint({
    method: 'POST',
    path: '/company/:companyId/billing/cancel',
    tag,
    summary:
      "Cancel the company's paid plan at the end of its period (owner); it then becomes Free, data kept",
    params: z.object({ companyId: id }),
    responses: { 200: planBillingSchema },
    errors: [...signedInErrors, 'not_found', 'no_paid_plan'],
  }),
  paymentWebhook: endpoint({
    method: 'POST',
    path: '/payment-gateway/webhooks/:provider',
    tag,
    public: true,
    summary:
      "The provider's signed webhook (raw body): 400 on a bad signature or an old timestamp; a replay answers 200 and changes nothing",
    params: webhookParamsSchema,
    responses: { 200: z.object({ received: z.literal(true) }) },
    errors: ['validation_failed', 'webhook_invalid', 'payments_unavailable'],
  }),
  getSandboxCheckout: endpoint({
    method: 'GET',
    path: '/payment-gateway/sandbox/checkouts/:checkoutId',
    tag,
    public: true,
    summary: 'The sandbox checkout page: what is being paid and where the checkout stands',
    params: sandboxCheckoutParamsSchema,
    responses: { 200: sandboxCheckoutSchema },
    errors: ['validation_failed', 'checkout_not_found', 'payments_unavailable'],
  }),
  paySandboxCheckout: endpoint({
    method: 'POST',
    path: '/payment-gateway/sandbox/checkouts/:checkoutId/pay',
    tag,
    public: true,
    summary:
      'Pay on the sandbox checkout with a test card (sandboxTestCards): paid, failed (card_declined) or requires_confirmation',
    description:
      'A malformed card is refused (invalid_card_number, invalid_expiry, invalid_cvc, ' +
      'invalid_name) and changes nothing; a decline closes the checkout and releases the hold.',
    params: sandboxCheckoutParamsSchema,
    body: sandboxPayInputSchema,
    responses: { 200: sandboxCheckoutSchema },
    errors: [
      ...checkoutErrors,
      'invalid_card_number',
      'invalid_expiry',
      'invalid_cvc',
      'invalid_name',
      'payments_unavailable',
    ],
  }),
  confirmSandboxCheckout: endpoint({
    method: 'POST',
    path: '/payment-gateway/sandbox/checkouts/:checkoutId/confirm',
    tag,
    public: true,
    summary:
      'The extra confirmation step (like 3-D Secure): approve pays, refuse fails the payment',
    params: sandboxCheckoutParamsSchema,
    body: sandboxConfirmInputSchema,
    responses: { 200: sandboxCheckoutSchema },
    errors: [...checkoutErrors, 'confirmation_invalid', 'payments_unavailable'],
  }),
  cancelSandboxCheckout: endpoint({
    method: 'POST',
    path: '/payment-gateway/sandbox/checkouts/:checkoutId/cancel',
    tag,
    public: true,
    summary: 'Leave the sandbox checkout without paying (the payer returns to cancelUrl)',
    params: sandboxCheckoutParamsSchema,
    responses: { 200: sandboxCheckoutSchema },
    errors: [...checkoutErrors, 'payments_unavailable'],
  }),
};
