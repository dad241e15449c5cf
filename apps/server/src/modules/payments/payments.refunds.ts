import { formatMoney } from '@upnext/contract/money';
import type { Db, Tx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { notifyHolder } from '../tokens/tokens.notifications.ts';
import { findSessionContext, findToken } from '../tokens/tokens.repository.ts';
import {
  findPayment,
  lockPayment,
  type PaymentRow,
  strandedRefunds,
  updatePayment,
} from './payments.repository.ts';
import type { PaymentsRuntime } from './providers.ts';

/** A refund recorded as `pending` in a committed transaction, to ask the provider for. */
export type RefundJob = { paymentId: string; amountMinor: number; reason: string };

/** Why a refund was made, in words for the payer. */
const reasonWords: Record<string, string> = {
  cancelled_by_visitor: 'You cancelled your visit.',
  cancelled_by_staff: 'The visit was cancelled by the company.',
  session_cancelled: 'The session was cancelled.',
  paid_after_hold_released:
    'Your payment arrived after your place had been released, and the session has no free place left.',
};

/** "£25.00" in a message to the visitor (English here; the web formats for the browser's locale). */
export function moneyInWords(amountMinor: number, currency: string) {
  return formatMoney(amountMinor, currency, 'en-GB');
}

/**
 * Records a refund of a paid payment (payment locked by the caller): `refund_status` pending
 * and the amount counted in `refunded_minor` at once, so two refunds never exceed what was
 * paid. None when nothing is left to refund, the amount is 0, or a refund is under way.
 */
export async function reserveRefund(
  tx: Tx,
  payment: PaymentRow,
  amountMinor: number,
  reason: string,
  now: Date,
): Promise<RefundJob | undefined> {
  const left = payment.amountMinor - payment.refundedMinor;
  const amount = Math.min(amountMinor, left);
  if (payment.status !== 'paid' || amount <= 0 || payment.refundStatus === 'pending') {
    return undefined;
  }
  await updatePayment(tx, payment.id, {
    refundStatus: 'pending',
    refundedMinor: payment.refundedMinor + amount,
    refundPendingMinor: amount,
    refundRef: null,
    refundReason: reason,
    updatedAt: now,
  });
  return { paymentId: payment.id, amountMinor: amount, reason };
}

export type RefundDeps = {
  db: Db;
  clock: Clock;
  payments: PaymentsRuntime;
  publicUrl: string;
  smsEnabled: boolean;
};

/**
 * Asks the provider for refunds recorded as pending, after their transaction committed, and
 * stores what it answered: `succeeded` (the visitor is told), `pending` (a webhook settles it
 * later), or `failed` (the amount no longer counts as refunded; an admin may try again).
 */
export async function runRefunds(deps: RefundDeps, jobs: readonly RefundJob[]) {
  for (const job of jobs) {
    const payment = await findPayment(deps.db, job.paymentId);
    if (!payment) continue;
    let outcome: { refundRef: string | null; status: 'pending' | 'succeeded' | 'failed' };
    try {
      if (!deps.payments.provider || !payment.providerRef) {
        // Paid without a checkout (a 100 % promotion): nothing was charged, nothing to return.
        outcome = { refundRef: null, status: payment.amountMinor === 0 ? 'succeeded' : 'failed' };
      } else {
        outcome = await deps.payments.provider.refund({
          paymentId: payment.id,
          providerRef: payment.providerRef,
          amountMinor: job.amountMinor,
          reason: job.reason,
        });
      }
    } catch {
      outcome = { refundRef: null, status: 'failed' };
    }
    await settleRefund(deps, job, outcome);
  }
}

async function settleRefund(
  deps: RefundDeps,
  job: RefundJob,
  outcome: { refundRef: string | null; status: 'pending' | 'succeeded' | 'failed' },
) {
  const now = deps.clock();
  await deps.db.transaction(async (tx) => {
    const payment = await lockPayment(tx, job.paymentId);
    if (!payment) return;
    // Settled already (a webhook, or a second run after a stranded refund was asked again).
    if (payment.refundStatus !== 'pending') return;
    await updatePayment(tx, payment.id, {
      refundStatus: outcome.status,
      refundRef: outcome.refundRef ?? payment.refundRef,
      // A refund under way (`pending`) keeps its amount until its webhook settles it.
      ...(outcome.status === 'pending' ? {} : settledRefund(payment, outcome.status)),
      updatedAt: now,
    });
    if (outcome.status !== 'failed') await tellRefunded(tx, deps, payment, job, now);
  });
}

/**
 * The amounts once the refund under way has an outcome: a failed one no longer counts as
 * refunded. Also used by the `refund_settled` webhook.
 */
export function settledRefund(payment: PaymentRow, status: 'succeeded' | 'failed') {
  return {
    refundedMinor:
      status === 'failed'
        ? payment.refundedMinor - payment.refundPendingMinor
        : payment.refundedMinor,
    refundPendingMinor: 0,
  };
}

/** How long a pending refund may wait for its provider call before the sweep asks again. */
const STRANDED_REFUND_MS = 60_000;

/**
 * Refunds whose provider answer was never stored (the server stopped after committing them)
 * are asked again: claimed with SKIP LOCKED and their lease renewed, so one instance asks.
 * The provider's idempotency (Stripe: a key per payment and amount) keeps a refund that did
 * go through from being made twice.
 */
export async function retryStrandedRefunds(deps: RefundDeps, limit = 50) {
  const now = deps.clock();
  const before = new Date(now.getTime() - STRANDED_REFUND_MS);
  for (const { id } of await strandedRefunds(deps.db, before, limit)) {
    const job = await deps.db.transaction(async (tx) => {
      const payment = await lockPayment(tx, id, { skipLocked: true });
      if (
        payment?.refundStatus !== 'pending' ||
        payment.refundRef !== null ||
        payment.refundPendingMinor === 0 ||
        payment.updatedAt >= before
      ) {
        return undefined;
      }
      await updatePayment(tx, id, { updatedAt: now });
      return {
        paymentId: id,
        amountMinor: payment.refundPendingMinor,
        reason: payment.refundReason ?? 'refund',
      };
    });
    if (job) await runRefunds(deps, [job]);
  }
}

/** "Your refund": to a visit's holder, in the refund's transaction (outbox). */
async function tellRefunded(
  tx: Tx,
  deps: RefundDeps,
  payment: PaymentRow,
  job: RefundJob,
  now: Date,
) {
  if (!payment.tokenId) return;
  const token = await findToken(tx, payment.tokenId);
  const session = token ? await findSessionContext(tx, token.sessionId) : undefined;
  if (!token || !session) return;
  await notifyHolder(
    tx,
    deps,
    now,
    'payment_refunded',
    session,
    token,
    {
      amount: moneyInWords(job.amountMinor, payment.currency),
      ...(reasonWords[job.reason] ? { reason: reasonWords[job.reason] } : {}),
    },
    { dedupe: `refund:${payment.id}:${payment.refundedMinor}` },
  );
}
