import type { CompanyPlan } from '@upnext/contract/companies';
import type { PaymentProviderName } from '@upnext/contract/payments';

/**
 * A payment gateway, as the token and plan logic sees it: create a checkout, verify a webhook,
 * refund, and ask a checkout's state. The sandbox (embedded default) and Stripe implement it;
 * another gateway (a regional card processor) plugs in here without touching the token logic.
 * Secrets stay inside the implementation: never logged, never sent to the browser.
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createCheckout(request: CheckoutRequest): Promise<CheckoutCreated>;
  /**
   * Checks a webhook's signature and age on its raw body, then says what it means in the
   * product's words. Refuses (throws) anything unsigned, badly signed or too old.
   */
  verifyWebhook(rawBody: Buffer, headers: WebhookHeaders, now: Date): Promise<PaymentEvent>;
  refund(request: RefundRequest): Promise<RefundResult>;
  /** The checkout's state asked of the provider: the server-side check beside the webhook. */
  fetchCheckout(providerRef: string): Promise<CheckoutState>;
  /** Stops a plan's renewals (the plan stays until the end of its paid period). */
  cancelSubscription(subscriptionRef: string): Promise<void>;
}

export type WebhookHeaders = Readonly<Record<string, string | string[] | undefined>>;

export type CheckoutRequest = {
  /** Our payment's id, carried through the provider and back in its webhooks. */
  paymentId: string;
  /** A one-off payment for a visit, or a monthly subscription for a company's plan. */
  mode: 'payment' | 'subscription';
  plan?: CompanyPlan;
  amountMinor: number;
  currency: string;
  /** What the payer sees they pay for, e.g. "Harbourview Health Centre: GP consultation, A-017". */
  description: string;
  merchantName: string;
  customerEmail: string | null;
  /** Where the payer returns (our `/payment-success` or `/admin/payment-success`). */
  successUrl: string;
  /** Where the payer goes on leaving the checkout (back to the join page or billing). */
  cancelUrl: string;
  /** The checkout closes then (the visit's hold ends). */
  expiresAt: Date;
};

export type CheckoutCreated = { providerRef: string; checkoutUrl: string };

export type CheckoutState = {
  status: 'open' | 'paid' | 'failed' | 'expired';
  subscriptionRef?: string;
  /** For a plan: the end of the period just paid. */
  periodEnd?: Date;
};

export type RefundRequest = {
  paymentId: string;
  providerRef: string;
  amountMinor: number;
  reason: string;
};

export type RefundResult = { refundRef: string; status: 'pending' | 'succeeded' | 'failed' };

/** A verified webhook, in the product's words; `eventId` makes a replay a no-op. */
export type PaymentEvent = { eventId: string } & (
  | {
      type: 'checkout_paid';
      paymentId: string;
      providerRef: string;
      subscriptionRef?: string;
      periodEnd?: Date;
    }
  | { type: 'checkout_failed'; paymentId: string; providerRef: string; reason: string }
  | { type: 'checkout_expired'; paymentId: string; providerRef: string }
  /** The payer left the checkout without paying (the sandbox's Cancel): the hold is released. */
  | { type: 'checkout_cancelled'; paymentId: string; providerRef: string }
  | { type: 'refund_settled'; refundRef: string; status: 'succeeded' | 'failed' }
  | { type: 'plan_renewed'; subscriptionRef: string; periodEnd: Date }
  | { type: 'plan_lapsed'; subscriptionRef: string }
  | { type: 'ignored' }
);
