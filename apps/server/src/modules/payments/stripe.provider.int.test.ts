import { PAYMENT_HOLD_MINUTES } from '@upnext/contract/payments';
import { plans } from '@upnext/contract/plans';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type StripeStandin, startStripeStandin } from '../../test/stripe-standin.ts';
import type { CheckoutRequest, PaymentProvider } from './provider.ts';
import { createStripeProvider } from './stripe.provider.ts';

/**
 * The Stripe provider through the real `stripe` package against a local stand-in of the
 * endpoints it uses (never Stripe's servers), with webhooks signed by the package's own
 * test-header helper.
 */
const secretKey = 'sk_test_standin_0123456789abcdef';
const webhookSecret = 'whsec_standin_0123456789abcdef';
const signer = new Stripe(secretKey);

let standin: StripeStandin;
let provider: PaymentProvider;

beforeAll(async () => {
  standin = await startStripeStandin();
  provider = createStripeProvider({ secretKey, webhookSecret, apiUrl: standin.url });
});
afterAll(() => standin.close());
beforeEach(() => {
  standin.requests.length = 0;
});

const visit = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  paymentId: crypto.randomUUID(),
  mode: 'payment',
  amountMinor: 2500,
  currency: 'GBP',
  description: 'Harbourview Health Centre: GP consultation, A-017',
  merchantName: 'Harbourview Health Centre',
  customerEmail: 'visitor@example.com',
  successUrl: 'http://localhost:3000/payment-success?payment=1',
  cancelUrl: 'http://localhost:3000/join?queue=ABC123',
  expiresAt: new Date(Date.now() + PAYMENT_HOLD_MINUTES * 60_000),
  ...overrides,
});

/** A webhook as Stripe sends it: the raw body and its `stripe-signature` header. */
function signed(
  type: string,
  object: object,
  options: { timestamp?: number; secret?: string } = {},
) {
  const payload = JSON.stringify({
    id: `evt_test_${crypto.randomUUID().replace(/-/g, '')}`,
    object: 'event',
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object },
  });
  const header = signer.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? webhookSecret,
    ...(options.timestamp ? { timestamp: options.timestamp } : {}),
  });
  return { body: Buffer.from(payload), headers: { 'stripe-signature': header } };
}

describe('Stripe provider (against the local stand-in)', () => {
  it('opens a payment-mode Checkout Session with what Stripe needs, held open past its 30-minute minimum', async () => {
    const request = visit();
    const created = await provider.createCheckout(request);
    expect(created.providerRef).toMatch(/^cs_test_/);
    expect(created.checkoutUrl).toContain(created.providerRef);

    const [call] = standin.requests;
    expect(call).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    expect(call?.authorization).toBe(`Bearer ${secretKey}`);
    expect(call?.idempotencyKey).toBe(`checkout-${request.paymentId}`);
    expect(call?.body).toMatchObject({
      mode: 'payment',
      client_reference_id: request.paymentId,
      metadata: { paymentId: request.paymentId },
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      customer_email: 'visitor@example.com',
      line_items: [
        {
          quantity: '1',
          price_data: {
            currency: 'gbp',
            unit_amount: '2500',
            product_data: { name: request.description },
          },
        },
      ],
      payment_intent_data: { metadata: { paymentId: request.paymentId } },
    });
    // Our hold is 15 minutes; Stripe wants at least 30, so the sweeper closes it at 15.
    const expiresAt = Number(call?.body.expires_at) * 1000;
    expect(expiresAt).toBeGreaterThanOrEqual(Date.now() + 30 * 60_000);
    expect(standin.sessions.get(created.providerRef)?.status).toBe('open');
  });

  it('the stand-in refuses a checkout closing sooner than 30 minutes, as Stripe does', async () => {
    const direct = new Stripe(secretKey, {
      host: '127.0.0.1',
      port: new URL(standin.url).port,
      protocol: 'http',
    });
    await expect(
      direct.checkout.sessions.create({
        mode: 'payment',
        success_url: 'http://localhost/ok',
        expires_at: Math.floor(Date.now() / 1000) + 15 * 60,
        line_items: [
          {
            quantity: 1,
            price_data: { currency: 'eur', unit_amount: 100, product_data: { name: 'x' } },
          },
        ],
      }),
    ).rejects.toThrow(/30 minutes/);
  });

  it("opens a subscription-mode Checkout Session at the plan table's monthly price", async () => {
    const request = visit({
      mode: 'subscription',
      plan: 'pro',
      amountMinor: plans.pro.monthlyPriceMinor,
      currency: 'EUR',
      description: 'UpNext Pro plan',
      successUrl: 'http://localhost:3000/admin/payment-success?payment=2',
      cancelUrl: 'http://localhost:3000/admin/company',
    });
    await provider.createCheckout(request);
    expect(standin.requests[0]?.body).toMatchObject({
      mode: 'subscription',
      client_reference_id: request.paymentId,
      metadata: { paymentId: request.paymentId, plan: 'pro' },
      line_items: [
        {
          price_data: {
            currency: 'eur',
            unit_amount: '3900',
            recurring: { interval: 'month' },
            product_data: { name: 'UpNext Pro plan' },
          },
        },
      ],
      subscription_data: { metadata: { paymentId: request.paymentId, plan: 'pro' } },
    });
    expect(standin.requests[0]?.body).not.toHaveProperty('payment_intent_data');
  });

  it('verifies a signed checkout.session.completed and says which payment was paid', async () => {
    const request = visit();
    const { providerRef } = await provider.createCheckout(request);
    const session = standin.complete(providerRef);
    const { body, headers } = signed('checkout.session.completed', session);
    const event = await provider.verifyWebhook(body, headers, new Date());
    expect(event).toMatchObject({
      type: 'checkout_paid',
      paymentId: request.paymentId,
      providerRef,
    });
    expect(event.eventId).toMatch(/^evt_test_/);
    expect(event).not.toHaveProperty('subscriptionRef');
  });

  it('a paid plan checkout carries the subscription and the end of its period, asked of Stripe', async () => {
    const request = visit({ mode: 'subscription', plan: 'business', amountMinor: 12900 });
    const { providerRef } = await provider.createCheckout(request);
    const periodEnd = Math.floor(Date.now() / 1000) + 31 * 86_400;
    const session = standin.complete(providerRef, periodEnd);
    const { body, headers } = signed('checkout.session.completed', session);
    const event = await provider.verifyWebhook(body, headers, new Date());
    expect(event).toMatchObject({
      type: 'checkout_paid',
      paymentId: request.paymentId,
      subscriptionRef: session.subscription,
      periodEnd: new Date(periodEnd * 1000),
    });
  });

  it('refuses a bad signature, a tampered body, a missing header and an old timestamp alike', async () => {
    const { providerRef } = await provider.createCheckout(visit());
    const session = standin.complete(providerRef);
    const now = new Date();

    const wrongSecret = signed('checkout.session.completed', session, {
      secret: 'whsec_someone_else',
    });
    const tampered = signed('checkout.session.completed', session);
    const tamperedBody = Buffer.from(tampered.body.toString().replace('"paid"', '"PAID"'));
    const old = signed('checkout.session.completed', session, {
      timestamp: Math.floor(now.getTime() / 1000) - 10 * 60,
    });

    for (const [body, headers] of [
      [wrongSecret.body, wrongSecret.headers],
      [tamperedBody, tampered.headers],
      [tampered.body, {}],
      [old.body, old.headers],
    ] as const) {
      await expect(provider.verifyWebhook(body, headers, now)).rejects.toMatchObject({
        code: 'webhook_invalid',
      });
    }
    // The same old webhook was fine when it was fresh: the age alone refused it.
    await expect(
      provider.verifyWebhook(old.body, old.headers, new Date(now.getTime() - 10 * 60_000)),
    ).resolves.toMatchObject({ type: 'checkout_paid' });
  });

  it("maps Stripe's other events to the product's words, and ignores the rest", async () => {
    const paymentId = crypto.randomUUID();
    const checkout = {
      id: 'cs_test_x',
      object: 'checkout.session',
      client_reference_id: paymentId,
      metadata: { paymentId },
      payment_status: 'unpaid',
      status: 'complete',
    };
    const verify = (type: string, object: object) => {
      const { body, headers } = signed(type, object);
      return provider.verifyWebhook(body, headers, new Date());
    };
    await expect(verify('checkout.session.async_payment_failed', checkout)).resolves.toMatchObject({
      type: 'checkout_failed',
      paymentId,
      providerRef: 'cs_test_x',
    });
    await expect(
      verify('checkout.session.expired', { ...checkout, status: 'expired' }),
    ).resolves.toMatchObject({ type: 'checkout_expired', paymentId, providerRef: 'cs_test_x' });
    // Completed but not yet paid (a delayed method): nothing to settle yet.
    await expect(verify('checkout.session.completed', checkout)).resolves.toMatchObject({
      type: 'ignored',
    });
    await expect(
      verify('refund.updated', { id: 're_test_1', object: 'refund', status: 'succeeded' }),
    ).resolves.toMatchObject({
      type: 'refund_settled',
      refundRef: 're_test_1',
      status: 'succeeded',
    });
    await expect(
      verify('refund.failed', { id: 're_test_2', object: 'refund', status: 'failed' }),
    ).resolves.toMatchObject({ type: 'refund_settled', refundRef: 're_test_2', status: 'failed' });
    await expect(
      verify('charge.refunded', {
        id: 'ch_test_1',
        object: 'charge',
        refunds: { data: [{ id: 're_test_3', status: 'succeeded' }] },
      }),
    ).resolves.toMatchObject({ type: 'refund_settled', refundRef: 're_test_3' });
    const periodEnd = Math.floor(Date.now() / 1000) + 30 * 86_400;
    await expect(
      verify('invoice.paid', {
        id: 'in_test_1',
        object: 'invoice',
        billing_reason: 'subscription_cycle',
        parent: { subscription_details: { subscription: 'sub_test_1' } },
        lines: { data: [{ period: { start: periodEnd - 30 * 86_400, end: periodEnd } }] },
      }),
    ).resolves.toMatchObject({
      type: 'plan_renewed',
      subscriptionRef: 'sub_test_1',
      periodEnd: new Date(periodEnd * 1000),
    });
    await expect(
      verify('customer.subscription.deleted', { id: 'sub_test_1', object: 'subscription' }),
    ).resolves.toMatchObject({ type: 'plan_lapsed', subscriptionRef: 'sub_test_1' });
    await expect(
      verify('customer.created', { id: 'cus_test_1', object: 'customer' }),
    ).resolves.toMatchObject({ type: 'ignored' });
  });

  it("refunds through the checkout's payment intent, once per amount", async () => {
    const request = visit();
    const { providerRef } = await provider.createCheckout(request);
    const session = standin.complete(providerRef);
    standin.requests.length = 0;
    const refund = {
      paymentId: request.paymentId,
      providerRef,
      amountMinor: 1250,
      reason: 'Cancelled by staff',
    };
    const result = await provider.refund(refund);
    expect(result).toMatchObject({ status: 'succeeded' });
    expect(result.refundRef).toMatch(/^re_test_/);
    const call = standin.requests.find((r) => r.path === '/v1/refunds');
    expect(call?.body).toMatchObject({
      payment_intent: session.payment_intent,
      amount: '1250',
      metadata: { paymentId: request.paymentId },
    });
    // Asked again (a retry of ours), Stripe answers the same refund: no second one.
    await expect(provider.refund(refund)).resolves.toEqual(result);
  });

  it('cancels a subscription at the end of its period', async () => {
    const { providerRef } = await provider.createCheckout(
      visit({ mode: 'subscription', plan: 'pro' }),
    );
    const session = standin.complete(providerRef);
    standin.requests.length = 0;
    await provider.cancelSubscription(session.subscription as string);
    expect(standin.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: `/v1/subscriptions/${session.subscription}`,
        body: { cancel_at_period_end: 'true' },
      }),
    ]);
  });

  it("asks a checkout's state, and closes an open one when our hold ends", async () => {
    const open = await provider.createCheckout(visit());
    await expect(provider.fetchCheckout(open.providerRef)).resolves.toEqual({ status: 'open' });
    await expect(provider.expireCheckout?.(open.providerRef)).resolves.toEqual({
      status: 'expired',
    });
    expect(standin.requests.map((r) => `${r.method} ${r.path}`)).toContain(
      `POST /v1/checkout/sessions/${open.providerRef}/expire`,
    );
    await expect(provider.fetchCheckout(open.providerRef)).resolves.toEqual({ status: 'expired' });

    // Paid before the sweeper got there: nothing is expired, the payment is reported.
    const paid = await provider.createCheckout(visit());
    standin.complete(paid.providerRef);
    standin.requests.length = 0;
    await expect(provider.expireCheckout?.(paid.providerRef)).resolves.toEqual({ status: 'paid' });
    expect(standin.requests.some((r) => r.path.endsWith('/expire'))).toBe(false);
  });
});
