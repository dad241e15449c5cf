import { PAYMENT_HOLD_MINUTES, type TokenPayment } from '@upnext/contract/payments';
import type { Db, Tx } from '../../db/client.ts';
import { moneyInWords, type RefundJob, reserveRefund } from '../payments/payments.refunds.ts';
import {
  findPayment,
  insertPayment,
  latestPaymentsOf,
  lockPayment,
  type PaymentRow,
  updatePayment,
} from '../payments/payments.repository.ts';
import { notifyHolder, notifyIssued } from './tokens.notifications.ts';
import * as repo from './tokens.repository.ts';
import { hasFreePlace, type SessionContext, type TokenRow } from './tokens.repository.ts';
import type { TokensDeps } from './tokens.service.ts';

/**
 * Paid visits (PRODUCT.md "Payments", states): a token of a queue with a price is issued as
 * `pending_payment`, holding its number (and slot) for PAYMENT_HOLD_MINUTES; it is out of the
 * live line, never called, not counted as waiting. The provider's webhook decides: paid →
 * `waiting` (or `booked`); declined, left at the checkout or not paid in time → `cancelled`
 * (reason `payment_failed`, `payment_cancelled`, `payment_expired`) and its place is given
 * back (`sessions.released_places + 1`, the slot's `booked_count - 1`). Every change here runs
 * under the lock order of issuing: session, then slot, then token, then payment.
 */

/** Whether a token of this session is held for payment (staff issuing at the desk take payment there). */
export function needsPayment(session: SessionContext, issuedByStaff: boolean) {
  return session.priceMinor !== null && session.currency !== null && !issuedByStaff;
}

/** The payment that holds a just-issued token's place, in the issuing transaction. */
export async function holdForPayment(
  tx: Tx,
  deps: TokensDeps,
  session: SessionContext,
  token: TokenRow,
  now: Date,
) {
  await insertPayment(tx, {
    companyId: session.companyId,
    kind: 'visit',
    tokenId: token.id,
    payerUserId: token.userId,
    payerEmail: token.visitorEmail,
    listAmountMinor: session.priceMinor as number,
    amountMinor: session.priceMinor as number,
    currency: session.currency as string,
    provider: deps.payments.provider?.name ?? 'none',
    expiresAt: new Date(now.getTime() + PAYMENT_HOLD_MINUTES * 60_000),
    createdAt: now,
    updatedAt: now,
  });
}

/** What a token shows of its payment. */
export async function tokenPayments(db: Db | Tx, tokenIds: readonly string[]) {
  const rows = await latestPaymentsOf(db, tokenIds);
  const shown = new Map<string, TokenPayment>();
  for (const [tokenId, row] of rows) {
    shown.set(tokenId, {
      paymentId: row.id,
      status: row.status,
      amountMinor: row.amountMinor,
      currency: row.currency,
      refundStatus: row.refundStatus,
      refundedMinor: row.refundedMinor,
      holdExpiresAt: row.expiresAt.toISOString(),
      checkoutUrl: row.status === 'pending' ? row.checkoutUrl : null,
    });
  }
  return shown;
}

type LockedVisit = {
  session: SessionContext;
  slot: Awaited<ReturnType<typeof repo.lockSlot>>;
  token: TokenRow;
  payment: PaymentRow;
};

/**
 * The session, slot, token and payment of a visit payment, locked in that order. With
 * `skipLocked` (the sweep), a payment another transaction holds is passed over (undefined).
 */
export async function lockVisit(
  tx: Tx,
  paymentId: string,
  options: { skipLocked?: boolean } = {},
): Promise<LockedVisit | undefined> {
  const first = await findPayment(tx, paymentId);
  if (!first?.tokenId) return undefined;
  const found = await repo.findToken(tx, first.tokenId);
  if (!found) return undefined;
  const session = await repo.lockSessionContext(tx, found.sessionId);
  if (!session) return undefined;
  const slot =
    found.sessionServiceId && found.slotNo !== null
      ? await repo.lockSlot(tx, found.sessionServiceId, found.slotNo)
      : undefined;
  const token = await repo.lockToken(tx, found.id);
  const payment = await lockPayment(tx, paymentId, options);
  if (!token || !payment) return undefined;
  return { session, slot, token, payment };
}

/** Gives a released token's place back to the session (and its slot). */
async function releasePlace(tx: Tx, token: TokenRow, now: Date) {
  await repo.changeReleasedPlaces(tx, token.sessionId, 1, now);
  if (token.sessionServiceId && token.slotNo !== null) {
    await repo.changeBookedCount(tx, token.sessionServiceId, token.slotNo, -1);
  }
}

export type VisitChange = {
  session: SessionContext;
  token: TokenRow;
  /** The token left the line (released): announce its cancellation. */
  cancelled: boolean;
  refunds: RefundJob[];
};

const releaseReasons = {
  failed: 'payment_failed',
  cancelled: 'payment_cancelled',
  expired: 'payment_expired',
} as const;

/**
 * A hold ends without payment: the payment records why, the token is released and its place
 * freed at once, so a declined or abandoned visitor holds nothing. Nothing changes unless the
 * payment is still open.
 */
export async function releaseHold(
  tx: Tx,
  visit: LockedVisit,
  status: 'failed' | 'cancelled' | 'expired',
  now: Date,
  failureReason?: string,
): Promise<VisitChange | undefined> {
  const { payment, token, session } = visit;
  if (payment.status !== 'pending') return undefined;
  await updatePayment(tx, payment.id, {
    status,
    failureReason: failureReason ?? null,
    updatedAt: now,
  });
  if (token.status !== 'pending_payment') {
    return { session, token, cancelled: false, refunds: [] };
  }
  const released = await repo.updateToken(tx, token.id, {
    status: 'cancelled',
    cancelledAt: now,
    cancelReason: releaseReasons[status],
    updatedAt: now,
  });
  await releasePlace(tx, token, now);
  return { session, token: released, cancelled: true, refunds: [] };
}

/** The receipt and the usual "your token" or "booking confirmed" message, once paid. */
async function notifyPaid(
  tx: Tx,
  deps: TokensDeps,
  now: Date,
  session: SessionContext,
  token: TokenRow,
  payment: PaymentRow,
) {
  await notifyIssued(tx, deps, now, session, token);
  await notifyHolder(tx, deps, now, 'payment_received', session, token, {
    amount: moneyInWords(payment.amountMinor, payment.currency),
  });
}

/** Admits a paid token: `waiting`, or `booked` until its slot is near (then the usual admission). */
async function admit(tx: Tx, token: TokenRow, now: Date, reinstated: boolean) {
  const admitted = await repo.updateToken(tx, token.id, {
    status: token.kind === 'booking' ? 'booked' : 'waiting',
    ...(reinstated ? { cancelledAt: null, cancelReason: null } : {}),
    updatedAt: now,
  });
  if (token.kind !== 'booking') return admitted;
  const due = await repo.admitDueBookings(tx, token.sessionId, now);
  return due.find((row) => row.id === token.id) ?? admitted;
}

/**
 * The provider says the visit is paid. An open hold admits the token. A payment that arrives
 * after its hold was released takes a free place if there is one (the token is reinstated,
 * under the same locks and capacity rule as issuing), and is refunded in full otherwise.
 */
export async function settlePaidVisit(
  tx: Tx,
  deps: TokensDeps,
  visit: LockedVisit,
  now: Date,
): Promise<VisitChange | undefined> {
  const { payment, token, session, slot } = visit;
  if (payment.status === 'paid') return undefined;
  const paid = await updatePayment(tx, payment.id, {
    status: 'paid',
    paidAt: now,
    failureReason: null,
    updatedAt: now,
  });
  if (payment.status === 'pending' && token.status === 'pending_payment') {
    const admitted = await admit(tx, token, now, false);
    await notifyPaid(tx, deps, now, session, admitted, paid);
    return { session, token: admitted, cancelled: false, refunds: [] };
  }
  const released = token.status === 'cancelled' && token.cancelReason?.startsWith('payment_');
  const issuing =
    session.status !== 'closed' && session.status !== 'cancelled' && session.endsAt > now;
  const slotFree =
    !slot || (slot.status === 'open' && slot.bookedCount < slot.capacity && slot.startsAt > now);
  const held = token.userId ? await repo.liveTokenIdsOf(tx, session.sessionId, token.userId) : [];
  if (
    released &&
    issuing &&
    hasFreePlace(session) &&
    slotFree &&
    held.length < session.tokensPerVisitor
  ) {
    await repo.changeReleasedPlaces(tx, session.sessionId, -1, now);
    if (token.sessionServiceId && token.slotNo !== null) {
      await repo.changeBookedCount(tx, token.sessionServiceId, token.slotNo, 1);
    }
    const admitted = await admit(tx, token, now, true);
    await notifyPaid(tx, deps, now, session, admitted, paid);
    return { session, token: admitted, cancelled: false, refunds: [] };
  }
  const refund = await reserveRefund(tx, paid, paid.amountMinor, 'paid_after_hold_released', now);
  return { session, token, cancelled: false, refunds: refund ? [refund] : [] };
}

/**
 * What a cancelled token's payment becomes, inside the cancelling transaction (token locked):
 * an open hold is closed and its place freed; a paid visit is refunded (`share` of it, 0-100).
 */
export async function settleCancelledToken(
  tx: Tx,
  token: TokenRow,
  wasPending: boolean,
  share: number,
  reason: string,
  now: Date,
  options: { freePlace: boolean },
): Promise<RefundJob[]> {
  const latest = (await latestPaymentsOf(tx, [token.id])).get(token.id);
  if (!latest) return [];
  const payment = await lockPayment(tx, latest.id);
  if (!payment) return [];
  if (payment.status === 'pending') {
    await updatePayment(tx, payment.id, { status: 'cancelled', updatedAt: now });
    if (wasPending && options.freePlace)
      await repo.changeReleasedPlaces(tx, token.sessionId, 1, now);
    return [];
  }
  if (payment.status !== 'paid') return [];
  const amount = Math.floor((payment.amountMinor * share) / 100);
  const job = await reserveRefund(tx, payment, amount, reason, now);
  return job ? [job] : [];
}

/**
 * The share of a paid visit its holder gets back on cancelling: the queue's `refund_percent`
 * when at least `cancel_notice_minutes` remain before the slot (or, for a walk-in, the
 * session) starts; nothing later. A notice of 0 always refunds the share.
 */
export function visitorRefundShare(session: SessionContext, token: TokenRow, now: Date) {
  if (session.cancelNoticeMinutes === 0) return session.refundPercent;
  const start = token.slotStartsAt ?? session.startsAt;
  const deadline = start.getTime() - session.cancelNoticeMinutes * 60_000;
  return now.getTime() <= deadline ? session.refundPercent : 0;
}
