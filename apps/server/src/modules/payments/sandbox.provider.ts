import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  cardExpiryEnd,
  luhnValid,
  SANDBOX_FAILING_REFUND_REASON,
  type SandboxCheckout,
  type SandboxPayInput,
  sandboxTestCards,
} from '@upnext/contract/payments';
import { buildPath, spaRoutes } from '@upnext/contract/routes';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { findPaymentView, type PaymentRow, type PaymentView } from './payments.repository.ts';
import { describePayment, returnUrls } from './payments.urls.ts';
import type {
  CheckoutCreated,
  CheckoutRequest,
  CheckoutState,
  PaymentProvider,
  RefundRequest,
  RefundResult,
  WebhookHeaders,
} from './provider.ts';

/** Header of the sandbox's webhooks, Stripe-style: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';
/** A webhook older (or newer) than this is refused, like Stripe's default tolerance. */
const WEBHOOK_TOLERANCE_SECONDS = 300;
/** Delivery attempts after the first, and the pause before each (ms). */
const RETRY_DELAYS_MS = [1000, 5000, 30_000];

/** Posts one signed webhook to our own endpoint; resolves with the HTTP status. */
export type WebhookDeliver = (body: string, headers: Record<string, string>) => Promise<number>;

type SandboxBody = {
  id: string;
  type: 'checkout.paid' | 'checkout.failed' | 'checkout.cancelled' | 'refund.settled';
  created: number;
  data: {
    paymentId?: string;
    checkoutId?: string;
    reason?: string;
    subscriptionRef?: string;
    periodEnd?: string;
    refundRef?: string;
    status?: 'succeeded' | 'failed';
  };
};

export type SandboxDeps = {
  db: Db;
  clock: Clock;
  publicUrl: string;
  /** Signs checkout ids, confirmation tokens and webhooks (SANDBOX_WEBHOOK_SECRET). */
  secret: string;
  deliver: WebhookDeliver;
  onDeliveryFailure?: (error: unknown) => void;
};

export type SandboxProvider = PaymentProvider & {
  readonly name: 'sandbox';
  /** The checkout page's API (public: the signed checkout id is its secret). */
  view(checkoutId: string): Promise<SandboxCheckout>;
  pay(checkoutId: string, card: SandboxPayInput): Promise<SandboxCheckout>;
  confirm(checkoutId: string, token: string, approve: boolean): Promise<SandboxCheckout>;
  cancel(checkoutId: string): Promise<SandboxCheckout>;
  /** Resolves once every webhook delivery under way (retries included) has ended: for tests. */
  settled(): Promise<void>;
};

function hmac(secret: string, value: string) {
  return createHmac('sha256', secret).update(value).digest('hex');
}

function safeEqual(a: string, b: string) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Signs a sandbox webhook body as the sandbox does (exported for tests that forge or replay). */
export function signSandboxWebhook(secret: string, body: string, at: Date) {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${hmac(secret, `${t}.${body}`)}`;
}

/** A card the sandbox accepts to try, or a refusal naming the field (nothing changes). */
function readCard(card: SandboxPayInput, now: Date) {
  const number = card.number.replace(/[\s-]/g, '');
  const known = sandboxTestCards.find((c) => c.number === number);
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number) || !known) {
    throw new AppError(
      'invalid_card_number',
      'This card number is not valid here. Use a sandbox test card, e.g. 4242 4242 4242 4242.',
    );
  }
  const expiryEnd = cardExpiryEnd(card.expiry);
  if (!expiryEnd || expiryEnd <= now) {
    throw new AppError('invalid_expiry', 'Give an expiry date in the future, as MM/YY.');
  }
  if (!/^\d{3,4}$/.test(card.cvc)) {
    throw new AppError('invalid_cvc', 'The security code is 3 or 4 digits.');
  }
  if (!card.name) throw new AppError('invalid_name', 'Give the name on the card.');
  return known.outcome;
}

function addMonth(instant: Date) {
  const next = new Date(instant);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
}

/**
 * The built-in sandbox checkout: a card checkout of our own (the page at
 * `/sandbox/checkout/{checkoutId}`), the embedded default and never used in production. Its
 * state lives in the payment's row (status, expiry) and in signed ids, so it survives a
 * restart and needs no table: the checkout id carries the payment id and an HMAC, the extra
 * confirmation step a signed token. Outcomes go to our webhook endpoint as signed webhooks,
 * like a real provider's, with retries.
 */
export function createSandboxProvider(deps: SandboxDeps): SandboxProvider {
  const deliveries = new Set<Promise<void>>();

  const checkoutIdOf = (paymentId: string) => {
    const compact = paymentId.replaceAll('-', '');
    return `cs_sbx_${compact}_${hmac(deps.secret, `checkout:${paymentId}`).slice(0, 24)}`;
  };

  const paymentIdOf = (checkoutId: string) => {
    const match = /^cs_sbx_([0-9a-f]{32})_([0-9a-f]{24})$/.exec(checkoutId);
    if (!match?.[1] || !match[2]) return undefined;
    const h = match[1];
    const id = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    return safeEqual(checkoutIdOf(id), checkoutId) ? id : undefined;
  };

  const loadView = async (checkoutId: string) => {
    const paymentId = paymentIdOf(checkoutId);
    const view = paymentId ? await findPaymentView(deps.db, paymentId) : undefined;
    const payment = view?.payment;
    if (!view || payment?.provider !== 'sandbox' || payment.providerRef !== checkoutId) {
      throw new AppError('checkout_not_found', 'This checkout does not exist.');
    }
    return view;
  };
  const load = async (checkoutId: string) => (await loadView(checkoutId)).payment;

  const statusOf = (payment: PaymentRow): SandboxCheckout['status'] => {
    if (payment.status === 'pending') {
      return payment.expiresAt <= deps.clock() ? 'expired' : 'open';
    }
    return payment.status;
  };

  const confirmationTokenOf = (paymentId: string) =>
    `${paymentId}.${hmac(deps.secret, `confirm:${paymentId}`)}`;

  const present = (
    view: PaymentView,
    outcome?: { status: SandboxCheckout['status']; failureCode?: string; confirm?: boolean },
  ): SandboxCheckout => {
    const { payment } = view;
    const urls = returnUrls(deps.publicUrl, view);
    return {
      checkoutId: payment.providerRef as string,
      merchantName: view.companyName,
      description: describePayment(view),
      amountMinor: payment.amountMinor,
      currency: payment.currency,
      mode: payment.kind === 'plan' ? 'subscription' : 'payment',
      status: outcome?.status ?? statusOf(payment),
      failureCode:
        outcome?.failureCode ?? (payment.status === 'failed' ? payment.failureReason : null),
      expiresAt: payment.expiresAt.toISOString(),
      successUrl: urls.successUrl,
      cancelUrl: urls.cancelUrl,
      confirmationToken: outcome?.confirm ? confirmationTokenOf(payment.id) : null,
    };
  };

  /** Sends one webhook, retrying in the background; resolves after the first attempt. */
  const send = async (body: SandboxBody) => {
    const raw = JSON.stringify(body);
    const attempt = async () => {
      const signature = signSandboxWebhook(deps.secret, raw, deps.clock());
      const status = await deps.deliver(raw, {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: signature,
      });
      if (status >= 300) throw new Error(`webhook answered ${status}`);
    };
    const first = attempt().then(
      () => true,
      () => false,
    );
    const retries = (async () => {
      if (await first) return;
      for (const delay of RETRY_DELAYS_MS) {
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
        try {
          await attempt();
          return;
        } catch (error) {
          if (delay === RETRY_DELAYS_MS.at(-1)) deps.onDeliveryFailure?.(error);
        }
      }
    })();
    deliveries.add(retries);
    void retries.finally(() => deliveries.delete(retries));
    await first;
  };

  const outcome = async (
    payment: PaymentRow,
    type: SandboxBody['type'],
    data: SandboxBody['data'] = {},
  ) => {
    const now = deps.clock();
    const paid = type === 'checkout.paid' && payment.kind === 'plan';
    await send({
      // One id per outcome: a retry or a replay of it is recognised as the same event.
      id: `evt_sbx_${payment.id}_${type}`,
      type,
      created: Math.floor(now.getTime() / 1000),
      data: {
        paymentId: payment.id,
        checkoutId: payment.providerRef as string,
        ...(paid
          ? { subscriptionRef: `sub_sbx_${payment.id}`, periodEnd: addMonth(now).toISOString() }
          : {}),
        ...data,
      },
    });
  };

  const requireOpen = (payment: PaymentRow) => {
    if (statusOf(payment) !== 'open') {
      throw new AppError('checkout_closed', 'This checkout is closed.', {
        status: statusOf(payment),
      });
    }
  };

  return {
    name: 'sandbox',

    async createCheckout(request: CheckoutRequest): Promise<CheckoutCreated> {
      const checkoutId = checkoutIdOf(request.paymentId);
      return {
        providerRef: checkoutId,
        checkoutUrl: `${deps.publicUrl}${buildPath(spaRoutes.sandboxCheckout, { checkoutId })}`,
      };
    },

    async verifyWebhook(rawBody: Buffer, headers: WebhookHeaders, now: Date) {
      const header = headers[SANDBOX_SIGNATURE_HEADER];
      const value = Array.isArray(header) ? header[0] : header;
      const parts = Object.fromEntries(
        (value ?? '').split(',').map((part) => part.trim().split('=', 2) as [string, string]),
      );
      const t = Number(parts.t);
      const v1 = parts.v1 ?? '';
      const body = rawBody.toString('utf8');
      if (!Number.isInteger(t) || !safeEqual(hmac(deps.secret, `${t}.${body}`), v1)) {
        throw new AppError('webhook_invalid', 'The webhook signature does not match.');
      }
      if (Math.abs(now.getTime() / 1000 - t) > WEBHOOK_TOLERANCE_SECONDS) {
        throw new AppError('webhook_invalid', 'The webhook is too old (or from the future).');
      }
      let event: SandboxBody;
      try {
        event = JSON.parse(body) as SandboxBody;
      } catch {
        throw new AppError('webhook_invalid', 'The webhook body is not JSON.');
      }
      const { paymentId, checkoutId } = event.data ?? {};
      const eventId = String(event.id);
      if (event.type === 'refund.settled' && event.data.refundRef && event.data.status) {
        return {
          eventId,
          type: 'refund_settled',
          refundRef: event.data.refundRef,
          status: event.data.status,
        };
      }
      if (!paymentId || !checkoutId) return { eventId, type: 'ignored' };
      const ref = { paymentId, providerRef: checkoutId };
      switch (event.type) {
        case 'checkout.paid':
          return {
            eventId,
            type: 'checkout_paid',
            ...ref,
            ...(event.data.subscriptionRef ? { subscriptionRef: event.data.subscriptionRef } : {}),
            ...(event.data.periodEnd ? { periodEnd: new Date(event.data.periodEnd) } : {}),
          };
        case 'checkout.failed':
          return {
            eventId,
            type: 'checkout_failed',
            ...ref,
            reason: event.data.reason ?? 'failed',
          };
        case 'checkout.cancelled':
          return { eventId, type: 'checkout_cancelled', ...ref };
        default:
          return { eventId, type: 'ignored' };
      }
    },

    async refund(request: RefundRequest): Promise<RefundResult> {
      const refundRef = `re_sbx_${randomBytes(12).toString('hex')}`;
      return {
        refundRef,
        status: request.reason === SANDBOX_FAILING_REFUND_REASON ? 'failed' : 'succeeded',
      };
    },

    async fetchCheckout(providerRef: string): Promise<CheckoutState> {
      const payment = await load(providerRef);
      const status = statusOf(payment);
      if (status === 'paid') return { status: 'paid' };
      if (status === 'open' || status === 'requires_confirmation') return { status: 'open' };
      if (status === 'expired') return { status: 'expired' };
      return { status: 'failed' };
    },

    async cancelSubscription() {
      // The sandbox charges no renewals: a plan bought here simply runs to its period's end.
    },

    async view(checkoutId) {
      return present(await loadView(checkoutId));
    },

    async pay(checkoutId, card) {
      const view = await loadView(checkoutId);
      const { payment } = view;
      requireOpen(payment);
      const result = readCard(card, deps.clock());
      if (result === 'succeeds') {
        await outcome(payment, 'checkout.paid');
        return present(view, { status: 'paid' });
      }
      if (result === 'declined') {
        await outcome(payment, 'checkout.failed', { reason: 'card_declined' });
        return present(view, { status: 'failed', failureCode: 'card_declined' });
      }
      return present(view, { status: 'requires_confirmation', confirm: true });
    },

    async confirm(checkoutId, token, approve) {
      const view = await loadView(checkoutId);
      const { payment } = view;
      requireOpen(payment);
      if (!safeEqual(token, confirmationTokenOf(payment.id))) {
        throw new AppError('confirmation_invalid', 'This confirmation is not valid.');
      }
      if (approve) {
        await outcome(payment, 'checkout.paid');
        return present(view, { status: 'paid' });
      }
      await outcome(payment, 'checkout.failed', { reason: 'authentication_failed' });
      return present(view, { status: 'failed', failureCode: 'authentication_failed' });
    },

    async cancel(checkoutId) {
      const view = await loadView(checkoutId);
      const { payment } = view;
      requireOpen(payment);
      await outcome(payment, 'checkout.cancelled');
      return present(view, { status: 'cancelled' });
    },

    async settled() {
      while (deliveries.size > 0) await Promise.allSettled([...deliveries]);
    },
  };
}
