import { z } from 'zod';

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
