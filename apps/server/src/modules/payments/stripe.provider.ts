import Stripe from 'stripe';
import { AppError } from '../../lib/errors.ts';
import type {
  CheckoutCreated,
  CheckoutRequest,
  CheckoutState,
  PaymentEvent,
  PaymentProvider,
  RefundRequest,
  RefundResult,
  WebhookHeaders,
} from './provider.ts';

export type StripeProviderOptions = {
  secretKey: string;
  webhookSecret: string;
  /** Another address for Stripe's API (a local stand-in in tests); Stripe's own otherwise. */
  apiUrl?: string | undefined;
  /** Seconds a webhook's signature stays acceptable (Stripe's default: 300). */
  toleranceSeconds?: number;
  /** Stripe's own clock decides a checkout's earliest expiry; tests may pin it. */
  now?: () => Date;
};

/**
 * Stripe refuses a Checkout Session that closes sooner than 30 minutes after it is created.
 * Our hold is 15 minutes, so the session is opened for a little over 30 and the expiry
 * sweeper closes it when the hold ends (`expireCheckout`); a payment that still gets through
 * in between arrives as a payment after expiry, which the payments core settles (a free place
 * or a refund).
 */
const STRIPE_MIN_EXPIRY_MS = 30 * 60_000;
const EXPIRY_MARGIN_MS = 60_000;

/** `https://host:port` to the `host`, `port` and `protocol` options of the package. */
function connection(apiUrl: string | undefined) {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
  } as const;
}

const idOf = (value: string | { id: string } | null | undefined): string | undefined =>
  typeof value === 'string' ? value : (value?.id ?? undefined);

const fromSeconds = (seconds: number | null | undefined): Date | undefined =>
  typeof seconds === 'number' ? new Date(seconds * 1000) : undefined;

const refundStatus = (status: string | null): RefundResult['status'] =>
  status === 'succeeded'
    ? 'succeeded'
    : status === 'failed' || status === 'canceled'
      ? 'failed'
      : 'pending';

/** Stripe Checkout through the official package: payment mode for visits, subscription mode for plans. */
export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    ...connection(options.apiUrl),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });
  const tolerance = options.toleranceSeconds ?? 300;
  const now = options.now ?? (() => new Date());

  /** The end of a subscription's current period (on its item since Stripe's 2025 API versions). */
  async function periodEndOf(subscriptionId: string): Promise<Date | undefined> {
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const item = subscription.items?.data?.[0] as { current_period_end?: number } | undefined;
    const legacy = (subscription as unknown as { current_period_end?: number }).current_period_end;
    return fromSeconds(item?.current_period_end ?? legacy);
  }

  function paymentIdOf(session: Stripe.Checkout.Session): string {
    const id = session.metadata?.paymentId ?? session.client_reference_id;
    if (!id) throw new AppError('bad_request', 'This checkout does not name one of our payments.');
    return id;
  }

  async function paid(session: Stripe.Checkout.Session, eventId: string): Promise<PaymentEvent> {
    const subscriptionRef = idOf(session.subscription);
    const periodEnd = subscriptionRef ? await periodEndOf(subscriptionRef) : undefined;
    return {
      eventId,
      type: 'checkout_paid',
      paymentId: paymentIdOf(session),
      providerRef: session.id,
      ...(subscriptionRef ? { subscriptionRef } : {}),
      ...(periodEnd ? { periodEnd } : {}),
    };
  }

  async function stateOf(session: Stripe.Checkout.Session): Promise<CheckoutState> {
    if (session.status === 'expired') return { status: 'expired' };
    if (session.status !== 'complete' || session.payment_status === 'unpaid') {
      return { status: 'open' };
    }
    const subscriptionRef = idOf(session.subscription);
    const periodEnd = subscriptionRef ? await periodEndOf(subscriptionRef) : undefined;
    return {
      status: 'paid',
      ...(subscriptionRef ? { subscriptionRef } : {}),
      ...(periodEnd ? { periodEnd } : {}),
    };
  }

  return {
    name: 'stripe',

    async createCheckout(request: CheckoutRequest): Promise<CheckoutCreated> {
      const earliest = now().getTime() + STRIPE_MIN_EXPIRY_MS + EXPIRY_MARGIN_MS;
      const expiresAt = Math.max(request.expiresAt.getTime(), earliest);
      const product = { name: request.description };
      const metadata = {
        paymentId: request.paymentId,
        ...(request.plan ? { plan: request.plan } : {}),
      };
      const common = {
        client_reference_id: request.paymentId,
        metadata,
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        expires_at: Math.ceil(expiresAt / 1000),
        ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
      };
      const params: Stripe.Checkout.SessionCreateParams =
        request.mode === 'subscription'
          ? {
              ...common,
              mode: 'subscription',
              line_items: [
                {
                  quantity: 1,
                  price_data: {
                    currency: request.currency.toLowerCase(),
                    unit_amount: request.amountMinor,
                    recurring: { interval: 'month' },
                    product_data: product,
                  },
                },
              ],
              subscription_data: { metadata, description: request.description },
            }
          : {
              ...common,
              mode: 'payment',
              line_items: [
                {
                  quantity: 1,
                  price_data: {
                    currency: request.currency.toLowerCase(),
                    unit_amount: request.amountMinor,
                    product_data: product,
                  },
                },
              ],
              payment_intent_data: {
                metadata,
                description: request.description,
                statement_descriptor_suffix:
                  request.merchantName
                    .replace(/[^A-Za-z0-9 ]/g, '')
                    .slice(0, 22)
                    .trim() || undefined,
              },
            };
      // One checkout per payment, however often our side retries the call.
      const session = await stripe.checkout.sessions.create(params, {
        idempotencyKey: `checkout-${request.paymentId}`,
      });
      if (!session.url) throw new Error('Stripe answered a checkout without a URL');
      return { providerRef: session.id, checkoutUrl: session.url };
    },

    async verifyWebhook(rawBody: Buffer, headers: WebhookHeaders, at: Date): Promise<PaymentEvent> {
      const signature = headers['stripe-signature'];
      if (typeof signature !== 'string' || signature === '') {
        throw new AppError('webhook_invalid', 'The webhook is not signed.');
      }
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(
          rawBody,
          signature,
          options.webhookSecret,
          tolerance,
          undefined,
          // The package takes "received at" in milliseconds.
          at.getTime(),
        );
      } catch {
        // Never echo what was wrong with a signature: a bad one, or one too old, is refused alike.
        throw new AppError('webhook_invalid', 'The webhook signature is invalid or too old.');
      }
      return mapEvent(event);
    },

    async refund(request: RefundRequest): Promise<RefundResult> {
      const session = await stripe.checkout.sessions.retrieve(request.providerRef);
      const paymentIntent = idOf(session.payment_intent);
      if (!paymentIntent) throw new Error('This checkout has no payment to refund');
      const refund = await stripe.refunds.create(
        {
          payment_intent: paymentIntent,
          amount: request.amountMinor,
          reason: 'requested_by_customer',
          metadata: { paymentId: request.paymentId, reason: request.reason.slice(0, 500) },
        },
        { idempotencyKey: `refund-${request.paymentId}-${request.amountMinor}` },
      );
      return { refundRef: refund.id, status: refundStatus(refund.status) };
    },

    async fetchCheckout(providerRef: string): Promise<CheckoutState> {
      return stateOf(await stripe.checkout.sessions.retrieve(providerRef));
    },

    async expireCheckout(providerRef: string): Promise<CheckoutState> {
      const session = await stripe.checkout.sessions.retrieve(providerRef);
      if (session.status !== 'open') return stateOf(session);
      try {
        return stateOf(await stripe.checkout.sessions.expire(providerRef));
      } catch (error) {
        // Completed meanwhile (Stripe refuses to expire it): say what it became.
        const again = await stripe.checkout.sessions.retrieve(providerRef);
        if (again.status === 'open') throw error;
        return stateOf(again);
      }
    },

    async cancelSubscription(subscriptionRef: string): Promise<void> {
      await stripe.subscriptions.update(subscriptionRef, { cancel_at_period_end: true });
    },
  };

  /** A verified Stripe event in the product's words; anything else is `ignored`. */
  async function mapEvent(event: Stripe.Event): Promise<PaymentEvent> {
    const eventId = event.id;
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = event.data.object;
        // Completed but unpaid: a delayed method still on its way (its outcome comes later).
        if (session.payment_status === 'unpaid') return { eventId, type: 'ignored' };
        return paid(session, eventId);
      }
      case 'checkout.session.async_payment_failed': {
        const session = event.data.object;
        return {
          eventId,
          type: 'checkout_failed',
          paymentId: paymentIdOf(session),
          providerRef: session.id,
          reason: 'The payment did not go through.',
        };
      }
      case 'checkout.session.expired': {
        const session = event.data.object;
        return {
          eventId,
          type: 'checkout_expired',
          paymentId: paymentIdOf(session),
          providerRef: session.id,
        };
      }
      case 'refund.created':
      case 'refund.updated':
      case 'refund.failed': {
        const status = refundStatus(event.data.object.status);
        if (status === 'pending') return { eventId, type: 'ignored' };
        return { eventId, type: 'refund_settled', refundRef: event.data.object.id, status };
      }
      case 'charge.refunded': {
        // Recent API versions leave the refunds out of the charge; refund.* events carry them.
        const latest = event.data.object.refunds?.data?.[0];
        const status = refundStatus(latest?.status ?? null);
        if (!latest || status === 'pending') return { eventId, type: 'ignored' };
        return { eventId, type: 'refund_settled', refundRef: latest.id, status };
      }
      case 'invoice.paid': {
        const invoice = event.data.object;
        const subscriptionRef = subscriptionOfInvoice(invoice);
        const periodEnd = fromSeconds(invoice.lines?.data?.[0]?.period?.end);
        if (!subscriptionRef || !periodEnd) return { eventId, type: 'ignored' };
        return { eventId, type: 'plan_renewed', subscriptionRef, periodEnd };
      }
      case 'customer.subscription.deleted':
        return { eventId, type: 'plan_lapsed', subscriptionRef: event.data.object.id };
      default:
        return { eventId, type: 'ignored' };
    }
  }
}

/** An invoice's subscription: on `parent` since Stripe's 2025 API versions, on the invoice before. */
function subscriptionOfInvoice(invoice: Stripe.Invoice): string | undefined {
  const parent = invoice.parent?.subscription_details?.subscription;
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null })
    .subscription;
  return idOf(parent ?? legacy);
}
