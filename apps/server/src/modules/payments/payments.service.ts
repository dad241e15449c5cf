import type {
  Checkout,
  CreatePaymentInput,
  ListPaymentsQuery,
  PaidPlan,
  Payment,
  PlanBilling,
} from '@upnext/contract/payments';
import { planCurrency, plans } from '@upnext/contract/plans';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { notFoundError } from '../access/access.ts';
import { type Caller, requireUser } from '../access/caller.ts';
import * as billingRepo from '../billing/billing.repository.ts';
import { listCurrentPromotions } from '../promotions/promotions.repository.ts';
import { publishCancelled, publishLive } from '../tokens/tokens.events.ts';
import { liveLine } from '../tokens/tokens.line.ts';
import {
  lockVisit,
  releaseHold,
  settlePaidVisit,
  type VisitChange,
} from '../tokens/tokens.payments.ts';
import { authorizeToken } from '../tokens/tokens.policy.ts';
import { findSessionContext, findToken } from '../tokens/tokens.repository.ts';
import type { TokensDeps } from '../tokens/tokens.service.ts';
import {
  authorizeBilling,
  authorizePaymentAdmin,
  authorizePaymentRead,
  authorizeRefund,
  paymentNotFound,
} from './payments.policy.ts';
import {
  reserveRefund,
  retryStrandedRefunds,
  runRefunds,
  settledRefund,
} from './payments.refunds.ts';
import * as repo from './payments.repository.ts';
import { describePayment, returnUrls } from './payments.urls.ts';
import type { PaymentEvent, WebhookHeaders } from './provider.ts';

/** Payments work with what tokens work with: the database, clock, publisher and provider. */
export type PaymentsDeps = TokensDeps;

/** A plan checkout stays open this long (a visit's closes with its hold). */
const PLAN_CHECKOUT_MINUTES = 60;

function addMonth(instant: Date) {
  const next = new Date(instant);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
}

function requireProvider(deps: PaymentsDeps) {
  const provider = deps.payments.provider;
  if (!provider) {
    throw new AppError(
      'payments_unavailable',
      'Online payments are not available on this server (no payment provider is configured).',
    );
  }
  return provider;
}

function presentPayment(view: repo.PaymentView): Payment {
  const p = view.payment;
  return {
    id: p.id,
    companyId: p.companyId,
    companyName: view.companyName,
    kind: p.kind,
    status: p.status,
    provider: p.provider === 'stripe' ? 'stripe' : 'sandbox',
    listAmountMinor: p.listAmountMinor,
    amountMinor: p.amountMinor,
    currency: p.currency,
    promotionCode: p.promotionCode,
    failureReason: p.failureReason,
    payerEmail: p.payerEmail,
    checkoutUrl: p.status === 'pending' ? p.checkoutUrl : null,
    expiresAt: p.expiresAt.toISOString(),
    paidAt: p.paidAt?.toISOString() ?? null,
    refundStatus: p.refundStatus,
    refundedMinor: p.refundedMinor,
    refundReason: p.refundReason,
    token:
      view.token && view.queueId && view.queueName !== null
        ? { ...view.token, queueId: view.queueId, queueName: view.queueName }
        : null,
    plan: p.plan === 'pro' || p.plan === 'business' ? p.plan : null,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

async function loadView(deps: PaymentsDeps, paymentId: string) {
  const view = await repo.findPaymentView(deps.db, paymentId);
  if (!view) throw paymentNotFound();
  return view;
}

/** `POST /payment-gateway/payment`: a visit's checkout (its holder) or a plan's (the owner). */
export async function createPayment(
  deps: PaymentsDeps,
  caller: Caller,
  input: CreatePaymentInput,
): Promise<Checkout> {
  const user = requireUser(caller);
  if ('tokenId' in input) return payForToken(deps, caller, input.tokenId, input.promotionCode);
  return buyPlan(deps, caller, user, input.companyId, input.plan);
}

async function payForToken(
  deps: PaymentsDeps,
  caller: Caller,
  tokenId: string,
  promotionCode: string | undefined,
): Promise<Checkout> {
  const token = await findToken(deps.db, tokenId);
  const session = token ? await findSessionContext(deps.db, token.sessionId) : undefined;
  if (!token || !session) throw notFoundError.token();
  // Only the token's holder pays for it; anyone else is told it does not exist.
  const standing = await authorizeToken(deps.db, caller, 'token.read', token, session);
  if (!standing.self) throw notFoundError.token();
  const provider = requireProvider(deps);
  const payment = (await repo.latestPaymentsOf(deps.db, [token.id])).get(token.id);
  if (!payment || token.status !== 'pending_payment' || payment.status !== 'pending') {
    throw new AppError('payment_not_required', 'This token has nothing left to pay.', {
      tokenStatus: token.status,
      paymentId: payment?.id ?? null,
      paymentStatus: payment?.status ?? null,
    });
  }
  const now = deps.clock();
  if (payment.expiresAt <= now) {
    throw new AppError(
      'payment_hold_expired',
      'The 15 minutes to pay for this place are over. Please take a new token.',
    );
  }
  if (payment.providerRef && payment.checkoutUrl) {
    return { paymentId: payment.id, checkoutUrl: payment.checkoutUrl, status: payment.status };
  }
  let amountMinor = payment.listAmountMinor;
  let promotion: { id: string; code: string } | undefined;
  if (promotionCode) {
    const current = await listCurrentPromotions(deps.db, session.companyId, now, session.queueId);
    const found = current.find((p) => p.code?.toLowerCase() === promotionCode.toLowerCase());
    if (!found?.code) {
      throw new AppError(
        'promotion_invalid',
        'This promotion code is not valid for this queue now.',
        { promotionCode },
      );
    }
    promotion = { id: found.id, code: found.code };
    amountMinor = Math.round((payment.listAmountMinor * (100 - found.discountPercent)) / 100);
  }
  const discount = {
    amountMinor,
    promotionId: promotion?.id ?? null,
    promotionCode: promotion?.code ?? null,
  };
  const view = await loadView(deps, payment.id);
  const urls = returnUrls(deps.publicUrl, view);
  if (amountMinor === 0) {
    // Nothing left to pay (a 100 % promotion): paid at once, no checkout.
    const change = await deps.db.transaction(async (tx) => {
      const visit = await lockVisit(tx, payment.id);
      if (visit?.payment.status !== 'pending') return undefined;
      await repo.updatePayment(tx, payment.id, { ...discount, updatedAt: now });
      return settlePaidVisit(
        tx,
        deps,
        { ...visit, payment: { ...visit.payment, ...discount } },
        now,
      );
    });
    await afterVisitChange(deps, change);
    return { paymentId: payment.id, checkoutUrl: urls.successUrl, status: 'paid' };
  }
  const created = await provider.createCheckout({
    paymentId: payment.id,
    mode: 'payment',
    amountMinor,
    currency: payment.currency,
    description: describePayment(view),
    merchantName: session.companyName,
    customerEmail: token.visitorEmail,
    ...urls,
    expiresAt: payment.expiresAt,
  });
  const stored = await repo.setCheckout(deps.db, payment.id, {
    ...discount,
    provider: provider.name,
    providerRef: created.providerRef,
    checkoutUrl: created.checkoutUrl,
    updatedAt: now,
  });
  // Two requests at once: the first checkout stored is the one both answer.
  const open = stored ?? (await repo.findPayment(deps.db, payment.id));
  if (!open?.checkoutUrl) throw new Error(`payment ${payment.id} has no checkout`);
  return { paymentId: open.id, checkoutUrl: open.checkoutUrl, status: open.status };
}

async function buyPlan(
  deps: PaymentsDeps,
  caller: Caller,
  user: { userId: string; email: string | null },
  companyId: string,
  plan: PaidPlan,
): Promise<Checkout> {
  await authorizeBilling(deps.db, caller, companyId);
  const company = await billingRepo.findCompanyBilling(deps.db, companyId);
  if (!company) throw new AppError('not_found', 'No such company.');
  if (company.plan === plan && company.planStatus === 'active' && !company.planCancelsAtPeriodEnd) {
    throw new AppError('plan_already_active', `The company is on the ${plan} plan already.`);
  }
  const provider = requireProvider(deps);
  const now = deps.clock();
  const price = plans[plan].monthlyPriceMinor;
  const payment = await repo.insertPayment(deps.db, {
    companyId,
    kind: 'plan',
    plan,
    payerUserId: user.userId,
    payerEmail: user.email,
    listAmountMinor: price,
    amountMinor: price,
    currency: planCurrency,
    provider: provider.name,
    expiresAt: new Date(now.getTime() + PLAN_CHECKOUT_MINUTES * 60_000),
    createdAt: now,
    updatedAt: now,
  });
  const view = { payment, joinCode: null, queueName: null, token: null };
  const created = await provider.createCheckout({
    paymentId: payment.id,
    mode: 'subscription',
    plan,
    amountMinor: price,
    currency: planCurrency,
    description: describePayment(view),
    merchantName: 'UpNext',
    customerEmail: user.email,
    ...returnUrls(deps.publicUrl, view),
    expiresAt: payment.expiresAt,
  });
  await repo.setCheckout(deps.db, payment.id, {
    provider: provider.name,
    providerRef: created.providerRef,
    checkoutUrl: created.checkoutUrl,
    updatedAt: now,
  });
  return { paymentId: payment.id, checkoutUrl: created.checkoutUrl, status: 'pending' };
}

export async function getPayment(deps: PaymentsDeps, caller: Caller, paymentId: string) {
  requireUser(caller);
  const view = await loadView(deps, paymentId);
  await authorizePaymentRead(deps.db, caller, view.payment);
  return presentPayment(view);
}

export async function listCompanyPayments(
  deps: PaymentsDeps,
  caller: Caller,
  companyId: string,
  query: ListPaymentsQuery,
) {
  requireUser(caller);
  await authorizePaymentAdmin(deps.db, caller, companyId);
  const { rows, total } = await repo.listPaymentViews(deps.db, companyId, query);
  return { items: rows.map(presentPayment), total, page: query.page, pageSize: query.pageSize };
}

/** An admin's refund of a paid payment: everything not refunded yet unless an amount is given. */
export async function refundPayment(
  deps: PaymentsDeps,
  caller: Caller,
  paymentId: string,
  input: { amountMinor?: number | undefined; reason?: string | undefined },
) {
  requireUser(caller);
  const found = await repo.findPayment(deps.db, paymentId);
  if (!found) throw paymentNotFound();
  await authorizeRefund(deps.db, caller, found);
  const job = await deps.db.transaction(async (tx) => {
    const payment = await repo.lockPayment(tx, paymentId);
    if (!payment) throw paymentNotFound();
    const left = payment.amountMinor - payment.refundedMinor;
    const amount = input.amountMinor ?? left;
    if (
      payment.status !== 'paid' ||
      left <= 0 ||
      amount > left ||
      payment.refundStatus === 'pending'
    ) {
      throw new AppError(
        'payment_not_refundable',
        'This payment cannot be refunded (by this amount).',
        {
          status: payment.status,
          refundableMinor: payment.status === 'paid' ? left : 0,
          refundStatus: payment.refundStatus,
        },
      );
    }
    return reserveRefund(tx, payment, amount, input.reason ?? 'refunded_by_company', deps.clock());
  });
  if (job) await runRefunds(deps, [job]);
  return presentPayment(await loadView(deps, paymentId));
}

function billingOf(row: billingRepo.CompanyBilling): PlanBilling {
  return {
    companyId: row.id,
    plan: row.plan,
    planStatus: row.planStatus,
    planRenewsAt: row.planRenewsAt?.toISOString() ?? null,
    planCancelsAtPeriodEnd: row.planCancelsAtPeriodEnd,
  };
}

/** The owner cancels: renewals stop, the plan runs to its period's end, then becomes Free. */
export async function cancelPlan(deps: PaymentsDeps, caller: Caller, companyId: string) {
  requireUser(caller);
  await authorizeBilling(deps.db, caller, companyId);
  const company = await billingRepo.findCompanyBilling(deps.db, companyId);
  if (!company) throw new AppError('not_found', 'No such company.');
  if (company.plan === 'free') {
    throw new AppError(
      'no_paid_plan',
      'The company is on the Free plan: there is nothing to cancel.',
    );
  }
  if (company.planSubscriptionRef && deps.payments.provider) {
    await deps.payments.provider.cancelSubscription(company.planSubscriptionRef);
  }
  const updated = await billingRepo.updateCompanyBilling(deps.db, companyId, {
    planCancelsAtPeriodEnd: true,
    updatedAt: deps.clock(),
  });
  return billingOf(updated);
}

// --- Webhooks -----------------------------------------------------------------------------

type Applied = { visit?: VisitChange | undefined; cancelSubscription?: string | undefined };

/**
 * `POST /payment-gateway/webhooks/{provider}`: checked by the provider (signature and age;
 * refused as `webhook_invalid`), then applied once: the event's id is recorded in the same
 * transaction, so a replay (or 50 deliveries at once) changes nothing more.
 */
export async function receiveWebhook(
  deps: PaymentsDeps,
  providerName: string,
  rawBody: Buffer,
  headers: WebhookHeaders,
) {
  const provider = requireProvider(deps);
  if (provider.name !== providerName) {
    throw new AppError('webhook_invalid', `This server does not take ${providerName} webhooks.`);
  }
  const event = await provider.verifyWebhook(rawBody, headers, deps.clock());
  const now = deps.clock();
  const applied = await deps.db.transaction(async (tx) => {
    if (!(await repo.recordWebhookEvent(tx, provider.name, event.eventId, now))) return undefined;
    return applyEvent(tx, deps, event, now);
  });
  if (applied?.visit) await afterVisitChange(deps, applied.visit);
  if (applied?.cancelSubscription) {
    await provider.cancelSubscription(applied.cancelSubscription).catch(() => undefined);
  }
  return { received: true as const };
}

const closedBy = {
  checkout_failed: 'failed',
  checkout_cancelled: 'cancelled',
  checkout_expired: 'expired',
} as const;

async function applyEvent(
  tx: Tx,
  deps: PaymentsDeps,
  event: PaymentEvent,
  now: Date,
): Promise<Applied> {
  switch (event.type) {
    case 'checkout_paid':
    case 'checkout_failed':
    case 'checkout_cancelled':
    case 'checkout_expired': {
      const payment = await repo.findPayment(tx, event.paymentId);
      if (!payment || payment.providerRef !== event.providerRef) return {};
      if (payment.kind === 'plan') return applyPlanCheckout(tx, payment.id, event, now);
      const visit = await lockVisit(tx, payment.id);
      if (!visit) return {};
      if (event.type === 'checkout_paid')
        return { visit: await settlePaidVisit(tx, deps, visit, now) };
      const reason = event.type === 'checkout_failed' ? event.reason : undefined;
      return { visit: await releaseHold(tx, visit, closedBy[event.type], now, reason) };
    }
    case 'refund_settled': {
      const found = await repo.findByRefundRef(tx, event.refundRef);
      const payment = found ? await repo.lockPayment(tx, found.id) : undefined;
      if (payment?.refundStatus === 'pending') {
        await repo.updatePayment(tx, payment.id, {
          refundStatus: event.status,
          ...settledRefund(payment, event.status),
          updatedAt: now,
        });
      }
      return {};
    }
    case 'plan_renewed': {
      const companyId = await repo.companyBySubscription(tx, event.subscriptionRef);
      if (!companyId || !(await billingRepo.lockCompanyBilling(tx, companyId))) return {};
      await billingRepo.updateCompanyBilling(tx, companyId, {
        planStatus: 'active',
        planRenewsAt: event.periodEnd,
        updatedAt: now,
      });
      return {};
    }
    case 'plan_lapsed': {
      const companyId = await repo.companyBySubscription(tx, event.subscriptionRef);
      if (companyId) await lapse(tx, companyId, now);
      return {};
    }
    case 'ignored':
      return {};
  }
}

/**
 * A plan checkout's outcome. Paid: the company is on the plan from now to the period's end
 * (the provider's, or a month), renewals by its subscription. Changing plan (upgrade or
 * downgrade) is a new checkout: the new plan and period start when it is paid, and the old
 * subscription is cancelled; the unused rest of the old period is not credited.
 */
async function applyPlanCheckout(
  tx: Tx,
  paymentId: string,
  event: Extract<PaymentEvent, { paymentId: string }>,
  now: Date,
): Promise<Applied> {
  const payment = await repo.lockPayment(tx, paymentId);
  if (!payment || payment.status === 'paid') return {};
  if (event.type !== 'checkout_paid') {
    if (payment.status === 'pending') {
      await repo.updatePayment(tx, paymentId, {
        status: closedBy[event.type],
        failureReason: event.type === 'checkout_failed' ? event.reason : null,
        updatedAt: now,
      });
    }
    return {};
  }
  await repo.updatePayment(tx, paymentId, { status: 'paid', paidAt: now, updatedAt: now });
  const company = await billingRepo.lockCompanyBilling(tx, payment.companyId);
  if (!company || !payment.plan || payment.plan === 'free') return {};
  const subscriptionRef = event.subscriptionRef ?? null;
  await billingRepo.updateCompanyBilling(tx, company.id, {
    plan: payment.plan,
    planStatus: 'active',
    planRenewsAt: event.periodEnd ?? addMonth(now),
    planCancelsAtPeriodEnd: false,
    planSubscriptionRef: subscriptionRef,
    updatedAt: now,
  });
  const old = company.planSubscriptionRef;
  return { cancelSubscription: old && old !== subscriptionRef ? old : undefined };
}

/** Back to Free (data kept): a lapsed or cancelled plan at its period's end. */
async function lapse(tx: Tx, companyId: string, now: Date) {
  const company = await billingRepo.lockCompanyBilling(tx, companyId);
  if (!company || company.plan === 'free') return;
  await billingRepo.updateCompanyBilling(tx, companyId, {
    plan: 'free',
    planStatus: 'cancelled',
    planRenewsAt: null,
    planCancelsAtPeriodEnd: false,
    planSubscriptionRef: null,
    updatedAt: now,
  });
}

/** After a visit's payment changed and committed: refunds, then the live line and the holder. */
async function afterVisitChange(deps: PaymentsDeps, change: VisitChange | undefined) {
  if (!change) return;
  await runRefunds(deps, change.refunds);
  if (change.cancelled) await publishCancelled(deps, [change.token]);
  await publishLive(deps, await liveLine(deps.db, change.session, deps.clock()));
}

// --- The sweep ----------------------------------------------------------------------------

/** A paid plan not renewed by its period's end lapses after this grace (renewals arrive late). */
const PLAN_RENEWAL_GRACE_MS = 3 * 86_400_000;

/**
 * One pass of the payments sweep (every instance, payments.sweeper.ts): holds not paid in
 * time are released (`payment_expired`, place freed), plan checkouts left open expire, and
 * plans past their period (cancelled, or not renewed within the grace) go back to Free. Each
 * row is claimed under its locks with SKIP LOCKED and checked again, so two instances never
 * act on it twice.
 */
export async function sweepPayments(deps: PaymentsDeps, limit = 100) {
  const now = deps.clock();
  let released = 0;
  const provider = deps.payments.provider;
  for (const due of await repo.dueOpenPayments(deps.db, now, limit)) {
    // A provider whose checkouts outlive the hold (Stripe's stay open 30 minutes at least) closes
    // it first; one the payer completed meanwhile is left to its webhook (a late payment).
    if (provider?.expireCheckout && due.providerRef) {
      const state = await provider.expireCheckout(due.providerRef).catch(() => undefined);
      if (state?.status === 'paid') continue;
    }
    const change = await deps.db.transaction(async (tx) => {
      if (due.kind === 'plan') {
        const payment = await repo.lockPayment(tx, due.id, { skipLocked: true });
        if (payment?.status === 'pending' && payment.expiresAt <= now) {
          await repo.updatePayment(tx, due.id, { status: 'expired', updatedAt: now });
        }
        return undefined;
      }
      const visit = await lockVisit(tx, due.id, { skipLocked: true });
      if (visit?.payment.status !== 'pending' || visit.payment.expiresAt > now) return undefined;
      return releaseHold(tx, visit, 'expired', now);
    });
    if (change?.cancelled) released += 1;
    await afterVisitChange(deps, change);
  }
  for (const company of await repo.lapsingCompanies(deps.db, now, PLAN_RENEWAL_GRACE_MS, limit)) {
    await deps.db.transaction(async (tx) => {
      const locked = await billingRepo.lockCompanyBilling(tx, company.id);
      if (!locked?.planRenewsAt || locked.plan === 'free') return;
      const end = locked.planRenewsAt.getTime();
      const over = locked.planCancelsAtPeriodEnd
        ? end <= now.getTime()
        : end + PLAN_RENEWAL_GRACE_MS <= now.getTime();
      if (over) await lapse(tx, company.id, now);
    });
  }
  await retryStrandedRefunds(deps, limit);
  return { released };
}
