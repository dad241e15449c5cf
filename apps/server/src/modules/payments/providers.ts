import { hkdfSync } from 'node:crypto';
import type { PaymentsConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PaymentProvider } from './provider.ts';
import {
  createSandboxProvider,
  type SandboxProvider,
  type WebhookDeliver,
} from './sandbox.provider.ts';

/** The provider checkouts run on, and the sandbox's page API when that is the one. */
export type PaymentsRuntime = {
  /** Null: no provider may run here (production without Stripe keys): paid queues refuse. */
  provider: PaymentProvider | null;
  sandbox: SandboxProvider | null;
};

/**
 * The one place the payment provider is chosen. Stripe Checkout when STRIPE_SECRET_KEY and
 * STRIPE_WEBHOOK_SECRET are set; otherwise the built-in sandbox, except in production, where
 * there is then no provider (paid queues answer `payments_unavailable` and the server says so
 * when it starts).
 */
export async function choosePaymentProvider(
  config: PaymentsConfig,
  deps: {
    db: Db;
    clock: Clock;
    publicUrl: string;
    /** The auth service's HMAC key: the sandbox's secret is derived from it when none is set. */
    hmacKey: Buffer;
    deliver: WebhookDeliver;
    onDeliveryFailure?: (error: unknown) => void;
  },
): Promise<PaymentsRuntime> {
  if (config.stripe) {
    // Loaded only here: Stripe's package is ~220 modules, ~0.1 s of a start that does not use it.
    const { createStripeProvider } = await import('./stripe.provider.ts');
    return { provider: createStripeProvider({ ...config.stripe, now: deps.clock }), sandbox: null };
  }
  if (!config.sandboxAllowed) return { provider: null, sandbox: null };
  const secret =
    config.sandboxSecret ??
    Buffer.from(
      hkdfSync('sha256', deps.hmacKey, 'upnext-payments', 'sandbox-webhooks', 32),
    ).toString('hex');
  const sandbox = createSandboxProvider({
    db: deps.db,
    clock: deps.clock,
    publicUrl: deps.publicUrl,
    secret,
    deliver: deps.deliver,
    ...(deps.onDeliveryFailure ? { onDeliveryFailure: deps.onDeliveryFailure } : {}),
  });
  return { provider: sandbox, sandbox };
}
