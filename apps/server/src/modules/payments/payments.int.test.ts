import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientPromotions,
  companies,
  notifications,
  payments,
  queues,
  queueTokens,
  sessions,
} from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createLiveSession, type LiveSessionOptions } from '../../test/live-session.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';
import { reserveRefund } from './payments.refunds.ts';
import { lockPayment } from './payments.repository.ts';
import { type PaymentsDeps, sweepPayments } from './payments.service.ts';
import { SANDBOX_SIGNATURE_HEADER, signSandboxWebhook } from './sandbox.provider.ts';

const SECRET = 'test-sandbox-secret-0123456789abcdef-0123456789';
const SUCCESS = '4242 4242 4242 4242';
const DECLINE = '4000 0000 0000 0002';
const CONFIRM = '4000 0027 6000 3184';
const MINUTE = 60_000;

describe.each(testDrivers)('paid visits and plans (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let now = new Date();
  const clock = () => now;
  let deps: PaymentsDeps;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database, { SANDBOX_WEBHOOK_SECRET: SECRET }, { clock });
    deps = {
      db: database.db,
      clock,
      publisher: { publish: () => undefined },
      publicUrl: t.config.publicUrl,
      smsEnabled: false,
      payments: t.app.payments,
    };
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  const call = (user: TestUser | null, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      headers: user?.headers ?? {},
      ...(payload ? { payload } : {}),
    });

  async function paidSession(
    options: LiveSessionOptions & { price?: number; notice?: number; percent?: number } = {},
  ) {
    now = new Date();
    const live = await createLiveSession(t, options);
    await database.db
      .update(queues)
      .set({
        priceMinor: options.price ?? 2500,
        currency: 'GBP',
        cancelNoticeMinutes: options.notice ?? 0,
        refundPercent: options.percent ?? 100,
      })
      .where(eq(queues.id, live.queue.id));
    return live;
  }

  async function take(visitor: TestUser, sessionId: string) {
    const response = await call(visitor, 'POST', '/queues/sessions/tokens', { sessionId });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  }

  async function checkout(visitor: TestUser, tokenId: string, promotionCode?: string) {
    const response = await call(visitor, 'POST', '/payment-gateway/payment', {
      tokenId,
      ...(promotionCode ? { promotionCode } : {}),
    });
    return response;
  }

  const checkoutIdOf = (url: string) => url.split('/').at(-1) as string;

  async function card(checkoutId: string, number: string) {
    return call(null, 'POST', `/payment-gateway/sandbox/checkouts/${checkoutId}/pay`, {
      number,
      expiry: '12/40',
      cvc: '123',
      name: 'Ada Lovelace',
    });
  }

  async function tokenRow(id: string) {
    const [row] = await database.db.select().from(queueTokens).where(eq(queueTokens.id, id));
    return row;
  }
  async function paymentRow(id: string) {
    const [row] = await database.db.select().from(payments).where(eq(payments.id, id));
    return row;
  }
  async function sessionRow(id: string) {
    const [row] = await database.db.select().from(sessions).where(eq(sessions.id, id));
    return row;
  }
  async function mails(recipient: string, template: string) {
    return database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipient, recipient), eq(notifications.template, template)));
  }

  /** A webhook as the sandbox signs it (for payments whose checkout has closed, and forgeries). */
  function webhook(body: object, options: { at?: Date; secret?: string } = {}) {
    const raw = JSON.stringify(body);
    return t.app.inject({
      method: 'POST',
      url: '/api/payment-gateway/webhooks/sandbox',
      headers: {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: signSandboxWebhook(
          options.secret ?? SECRET,
          raw,
          options.at ?? now,
        ),
      },
      payload: raw,
    });
  }
  const paidEvent = (payment: { id: string; providerRef: string | null }, id = 'x') => ({
    id: `evt_test_${payment.id}_${id}`,
    type: 'checkout.paid',
    created: Math.floor(now.getTime() / 1000),
    data: { paymentId: payment.id, checkoutId: payment.providerRef },
  });

  it('holds a paid token out of the line, then admits it once the success card pays (with a receipt)', async () => {
    const live = await paidSession();
    const visitor = await createTestUser(t);
    const token = await take(visitor, live.session.id);
    expect(token.status).toBe('pending_payment');
    expect(token.position).toBeNull();
    expect(token.payment).toMatchObject({ status: 'pending', amountMinor: 2500, currency: 'GBP' });
    const board = await call(visitor, 'GET', `/queues/sessions/${live.session.id}/board`);
    expect(board.json().data.waiting).toBe(0);

    const first = await checkout(visitor, token.id);
    expect(first.statusCode, first.body).toBe(201);
    const { paymentId, checkoutUrl } = first.json().data;
    expect(checkoutUrl).toContain('/sandbox/checkout/cs_sbx_');
    // Asking again answers the open checkout.
    const again = await checkout(visitor, token.id);
    expect(again.json().data).toMatchObject({ paymentId, checkoutUrl });

    const id = checkoutIdOf(checkoutUrl);
    const page = await call(null, 'GET', `/payment-gateway/sandbox/checkouts/${id}`);
    expect(page.json().data).toMatchObject({
      status: 'open',
      amountMinor: 2500,
      merchantName: live.company.name,
    });
    // The return URL changes nothing: before the webhook, the payment is pending.
    expect((await call(visitor, 'GET', `/payments/${paymentId}`)).json().data.status).toBe(
      'pending',
    );
    const paid = await card(id, SUCCESS);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data.status).toBe('paid');
    await t.app.payments.sandbox?.settled();

    const payment = await call(visitor, 'GET', `/payments/${paymentId}`);
    expect(payment.json().data).toMatchObject({
      status: 'paid',
      amountMinor: 2500,
      token: { id: token.id, status: 'waiting' },
    });
    const mine = await call(visitor, 'POST', '/queues/sessions/tokens-query', { mine: true });
    expect(mine.json().data[0]).toMatchObject({
      status: 'waiting',
      position: 1,
      payment: { status: 'paid' },
    });
    expect(await mails(visitor.email, 'payment_received')).toHaveLength(1);
    // Paying again is refused; a stranger cannot read or pay it.
    expect((await checkout(visitor, token.id)).json().error.code).toBe('payment_not_required');
    const stranger = await createTestUser(t);
    const read = await call(stranger, 'GET', `/payments/${paymentId}`);
    expect(read.statusCode).toBe(404);
    expect(read.json().error.code).toBe('payment_not_found');
    expect((await checkout(stranger, token.id)).json().error.code).toBe('token_not_found');
  });

  it('a declined card releases the hold at once: nothing held, the place is free again', async () => {
    const live = await paidSession({ capacity: 1 });
    const visitor = await createTestUser(t);
    const token = await take(visitor, live.session.id);
    const { checkoutUrl, paymentId } = (await checkout(visitor, token.id)).json().data;
    const declined = await card(checkoutIdOf(checkoutUrl), DECLINE);
    expect(declined.json().data).toMatchObject({ status: 'failed', failureCode: 'card_declined' });
    expect(await tokenRow(token.id)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'payment_failed',
    });
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'failed',
      failureReason: 'card_declined',
    });
    expect((await sessionRow(live.session.id))?.releasedPlaces).toBe(1);
    // The same visitor (limit 1) or another may take the only place again.
    const retry = await take(visitor, live.session.id);
    expect(retry.status).toBe('pending_payment');
    // The checkout is closed for good.
    expect((await card(checkoutIdOf(checkoutUrl), SUCCESS)).json().error.code).toBe(
      'checkout_closed',
    );
  });

  it('refuses a malformed card without changing anything, and runs the extra confirmation step', async () => {
    const live = await paidSession();
    const visitor = await createTestUser(t);
    const token = await take(visitor, live.session.id);
    const id = checkoutIdOf((await checkout(visitor, token.id)).json().data.checkoutUrl);
    const bad = await card(id, '4111 1111 1111 1112');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('invalid_card_number');
    expect((await tokenRow(token.id))?.status).toBe('pending_payment');

    const step = await card(id, CONFIRM);
    expect(step.json().data.status).toBe('requires_confirmation');
    const confirmationToken = step.json().data.confirmationToken as string;
    const forged = await call(null, 'POST', `/payment-gateway/sandbox/checkouts/${id}/confirm`, {
      confirmationToken: `${confirmationToken}x`,
      approve: true,
    });
    expect(forged.json().error.code).toBe('confirmation_invalid');
    const ok = await call(null, 'POST', `/payment-gateway/sandbox/checkouts/${id}/confirm`, {
      confirmationToken,
      approve: true,
    });
    expect(ok.json().data.status).toBe('paid');
    expect((await tokenRow(token.id))?.status).toBe('waiting');
  });

  it('leaving the checkout (cancel) releases the hold: abandoned, nothing issued', async () => {
    const live = await paidSession();
    const visitor = await createTestUser(t);
    const token = await take(visitor, live.session.id);
    const { checkoutUrl, paymentId } = (await checkout(visitor, token.id)).json().data;
    const left = await call(
      null,
      'POST',
      `/payment-gateway/sandbox/checkouts/${checkoutIdOf(checkoutUrl)}/cancel`,
    );
    expect(left.json().data.status).toBe('cancelled');
    expect((await tokenRow(token.id))?.cancelReason).toBe('payment_cancelled');
    expect((await paymentRow(paymentId))?.status).toBe('cancelled');
  });

  it('releases a hold not paid in time, and a payment after it takes a free place', async () => {
    const live = await paidSession({ capacity: 2 });
    const visitor = await createTestUser(t);
    const token = await take(visitor, live.session.id);
    const { paymentId } = (await checkout(visitor, token.id)).json().data;
    now = new Date(now.getTime() + 14 * MINUTE);
    await sweepPayments(deps);
    expect((await tokenRow(token.id))?.status).toBe('pending_payment');
    now = new Date(now.getTime() + 2 * MINUTE);
    expect((await checkout(visitor, token.id)).json().error.code).toBe('payment_hold_expired');
    expect((await sweepPayments(deps)).released).toBeGreaterThanOrEqual(1);
    expect(await tokenRow(token.id)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'payment_expired',
    });
    expect((await paymentRow(paymentId))?.status).toBe('expired');
    expect((await sessionRow(live.session.id))?.releasedPlaces).toBe(1);
    // The provider confirms the payment late: a place is free, so the token is reinstated.
    const payment = await paymentRow(paymentId);
    const late = await webhook(paidEvent(payment as NonNullable<typeof payment>));
    expect(late.statusCode, late.body).toBe(200);
    expect(await tokenRow(token.id)).toMatchObject({ status: 'waiting', cancelReason: null });
    expect((await sessionRow(live.session.id))?.releasedPlaces).toBe(0);
    expect((await paymentRow(paymentId))?.status).toBe('paid');
  });

  it('refunds in full a payment after its hold when the place was taken meanwhile', async () => {
    const live = await paidSession({ capacity: 1 });
    const [first, second] = [await createTestUser(t), await createTestUser(t)];
    const token = await take(first, live.session.id);
    const { paymentId } = (await checkout(first, token.id)).json().data;
    now = new Date(now.getTime() + 16 * MINUTE);
    await sweepPayments(deps);
    await take(second, live.session.id);
    const payment = await paymentRow(paymentId);
    await webhook(paidEvent(payment as NonNullable<typeof payment>));
    expect((await tokenRow(token.id))?.status).toBe('cancelled');
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'paid',
      refundStatus: 'succeeded',
      refundedMinor: 2500,
    });
    const session = await sessionRow(live.session.id);
    expect((session?.lastIssuedNumber ?? 0) - (session?.releasedPlaces ?? 0)).toBe(1);
    expect(await mails(first.email, 'payment_refunded')).toHaveLength(1);
  });

  it('refuses a bad signature or an old timestamp, and a replay changes nothing', async () => {
    const live = await paidSession();
    const visitor = await createTestUser(t);
    const token = await take(visitor, live.session.id);
    const { paymentId } = (await checkout(visitor, token.id)).json().data;
    const payment = (await paymentRow(paymentId)) as NonNullable<
      Awaited<ReturnType<typeof paymentRow>>
    >;
    const forged = await webhook(paidEvent(payment), {
      secret: 'another-secret-0123456789abcdef0123',
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.code).toBe('webhook_invalid');
    const old = await webhook(paidEvent(payment), { at: new Date(now.getTime() - 6 * MINUTE) });
    expect(old.statusCode).toBe(400);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/payment-gateway/webhooks/sandbox',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(paidEvent(payment)),
    });
    expect(unsigned.statusCode).toBe(400);
    expect((await tokenRow(token.id))?.status).toBe('pending_payment');

    // 50 deliveries of the same event at once settle it once.
    const results = await Promise.all(
      Array.from({ length: 50 }, () => webhook(paidEvent(payment, 'burst'))),
    );
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect((await tokenRow(token.id))?.status).toBe('waiting');
    expect(await mails(visitor.email, 'payment_received')).toHaveLength(1);
    // Another event id for the same payment (a provider's second notice) changes nothing more.
    await webhook(paidEvent(payment, 'second'));
    expect(await mails(visitor.email, 'payment_received')).toHaveLength(1);
  });

  async function paidToken(visitor: TestUser, sessionId: string) {
    const token = await take(visitor, sessionId);
    const { paymentId, checkoutUrl } = (await checkout(visitor, token.id)).json().data;
    await card(checkoutIdOf(checkoutUrl), SUCCESS);
    return { token, paymentId: paymentId as string };
  }

  it('refunds the visitor by the queue rule: inside the notice its share, outside nothing', async () => {
    const inside = await paidSession({ notice: 60, percent: 50, startsInHours: 3 });
    const visitor = await createTestUser(t);
    const a = await paidToken(visitor, inside.session.id);
    const cancelled = await call(visitor, 'POST', '/queues/sessions/tokens-cancel', {
      tokenId: a.token.id,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data.payment).toMatchObject({
      refundStatus: 'succeeded',
      refundedMinor: 1250,
    });

    const outside = await paidSession({ notice: 60, percent: 100 }); // began an hour ago
    const b = await paidToken(visitor, outside.session.id);
    await call(visitor, 'POST', '/queues/sessions/tokens-cancel', { tokenId: b.token.id });
    expect(await paymentRow(b.paymentId)).toMatchObject({ refundStatus: null, refundedMinor: 0 });
  });

  it('refunds in full when staff cancel a token or the session is cancelled', async () => {
    const live = await paidSession({ notice: 600, percent: 0 });
    const [one, two] = [await createTestUser(t), await createTestUser(t)];
    const a = await paidToken(one, live.session.id);
    const b = await paidToken(two, live.session.id);
    const byStaff = await call(live.owner, 'POST', '/queues/sessions/tokens-cancel', {
      tokenId: a.token.id,
    });
    expect(byStaff.statusCode, byStaff.body).toBe(200);
    expect(await paymentRow(a.paymentId)).toMatchObject({
      refundStatus: 'succeeded',
      refundedMinor: 2500,
    });
    const cancelled = await call(live.owner, 'POST', '/queues/sessions/status', {
      sessionId: live.session.id,
      status: 'cancelled',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await paymentRow(b.paymentId)).toMatchObject({
      refundStatus: 'succeeded',
      refundedMinor: 2500,
    });
    expect(await mails(two.email, 'payment_refunded')).toHaveLength(1);
  });

  it('a refund stranded by a stop (committed, never asked of the provider) is asked again by the sweep, once', async () => {
    const live = await paidSession();
    const visitor = await createTestUser(t);
    const { paymentId } = await paidToken(visitor, live.session.id);
    // The server stopped right after committing the refund: pending, never asked.
    await database.db.transaction(async (tx) => {
      const payment = await lockPayment(tx, paymentId);
      if (!payment) throw new Error('no payment');
      await reserveRefund(tx, payment, 1000, 'cancelled_by_staff', now);
    });
    expect(await paymentRow(paymentId)).toMatchObject({
      refundStatus: 'pending',
      refundedMinor: 1000,
      refundPendingMinor: 1000,
      refundRef: null,
    });
    // Not yet: a refund may still be on its way to the provider.
    await sweepPayments(deps);
    expect(await paymentRow(paymentId)).toMatchObject({ refundStatus: 'pending', refundRef: null });

    now = new Date(now.getTime() + 2 * MINUTE);
    await Promise.all([sweepPayments(deps), sweepPayments(deps)]);
    expect(await paymentRow(paymentId)).toMatchObject({
      refundStatus: 'succeeded',
      refundedMinor: 1000,
      refundPendingMinor: 0,
      refundRef: expect.stringMatching(/^re_sbx_/),
    });
    expect(await mails(visitor.email, 'payment_refunded')).toHaveLength(1);
    await sweepPayments(deps);
    expect(await mails(visitor.email, 'payment_refunded')).toHaveLength(1);
  });

  it('a refund the provider reports failed later (webhook) no longer counts as refunded', async () => {
    const live = await paidSession();
    const visitor = await createTestUser(t);
    const { paymentId } = await paidToken(visitor, live.session.id);
    await database.db
      .update(payments)
      .set({
        refundStatus: 'pending',
        refundedMinor: 2500,
        refundPendingMinor: 2500,
        refundRef: 're_sbx_async_one',
      })
      .where(eq(payments.id, paymentId));
    const settled = await webhook({
      id: `evt_test_refund_failed_${paymentId}`,
      type: 'refund.settled',
      created: Math.floor(now.getTime() / 1000),
      data: { refundRef: 're_sbx_async_one', status: 'failed' },
    });
    expect(settled.statusCode, settled.body).toBe(200);
    expect(await paymentRow(paymentId)).toMatchObject({
      refundStatus: 'failed',
      refundedMinor: 0,
      refundPendingMinor: 0,
    });
    // Now it can be refunded again in full.
    const again = await call(live.owner, 'POST', `/payments/${paymentId}/refund`, {});
    expect(again.statusCode, again.body).toBe(200);
    expect(await paymentRow(paymentId)).toMatchObject({
      refundStatus: 'succeeded',
      refundedMinor: 2500,
    });
  });

  it('applies a promotion code at checkout; unknown codes are refused; 100 % pays at once', async () => {
    const live = await paidSession();
    await database.db.insert(clientPromotions).values([
      { companyId: live.company.id, title: 'Spring', code: 'SPRING20', discountPercent: 20 },
      { companyId: live.company.id, title: 'Free', code: 'FREE100', discountPercent: 100 },
    ]);
    const [one, two] = [await createTestUser(t), await createTestUser(t)];
    const a = await take(one, live.session.id);
    const unknown = await checkout(one, a.id, 'NOPE');
    expect(unknown.statusCode).toBe(409);
    expect(unknown.json().error.code).toBe('promotion_invalid');
    const discounted = await checkout(one, a.id, 'spring20');
    expect(discounted.statusCode, discounted.body).toBe(201);
    expect(await paymentRow(discounted.json().data.paymentId)).toMatchObject({
      listAmountMinor: 2500,
      amountMinor: 2000,
      promotionCode: 'SPRING20',
    });
    const b = await take(two, live.session.id);
    const free = await checkout(two, b.id, 'FREE100');
    expect(free.json().data).toMatchObject({ status: 'paid' });
    expect(free.json().data.checkoutUrl).toContain('/payment-success?paymentId=');
    expect((await tokenRow(b.id))?.status).toBe('waiting');
  });

  it('lets admins list and refund payments, and no one else', async () => {
    const live = await paidSession();
    const visitor = await createTestUser(t);
    const { paymentId } = await paidToken(visitor, live.session.id);
    const list = await call(live.owner, 'GET', `/company/${live.company.id}/payments?kind=visit`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data).toMatchObject({ total: 1, items: [{ id: paymentId }] });
    const byVisitor = await call(visitor, 'GET', `/company/${live.company.id}/payments`);
    expect(byVisitor.statusCode).toBe(404);
    const refusal = await call(visitor, 'POST', `/payments/${paymentId}/refund`, {});
    expect(refusal.statusCode).toBe(403);
    const staff = await live.addStaff('staff');
    expect((await call(staff, 'POST', `/payments/${paymentId}/refund`, {})).statusCode).toBe(404);
    const part = await call(live.owner, 'POST', `/payments/${paymentId}/refund`, {
      amountMinor: 500,
    });
    expect(part.json().data).toMatchObject({ refundStatus: 'succeeded', refundedMinor: 500 });
    const tooMuch = await call(live.owner, 'POST', `/payments/${paymentId}/refund`, {
      amountMinor: 2001,
    });
    expect(tooMuch.json().error.code).toBe('payment_not_refundable');
    const rest = await call(live.owner, 'POST', `/payments/${paymentId}/refund`, {});
    expect(rest.json().data.refundedMinor).toBe(2500);
  });

  it('changes plan through a new checkout: an upgrade and a downgrade take effect once paid, not before', async () => {
    const live = await paidSession();
    const planOf = async () =>
      (await database.db.select().from(companies).where(eq(companies.id, live.company.id)))[0];
    const buy = async (plan: 'pro' | 'business') => {
      const opened = await call(live.owner, 'POST', '/payment-gateway/payment', {
        plan,
        companyId: live.company.id,
      });
      expect(opened.statusCode, opened.body).toBe(201);
      return checkoutIdOf(opened.json().data.checkoutUrl);
    };
    await card(await buy('pro'), SUCCESS);
    expect(await planOf()).toMatchObject({ plan: 'pro', planStatus: 'active' });

    // Upgrade: Business once paid; a declined card changes nothing.
    await card(await buy('business'), DECLINE);
    expect(await planOf()).toMatchObject({ plan: 'pro', planStatus: 'active' });
    now = new Date(now.getTime() + MINUTE);
    await card(await buy('business'), SUCCESS);
    const upgraded = await planOf();
    expect(upgraded).toMatchObject({ plan: 'business', planStatus: 'active' });

    // Downgrade: Pro again once paid, with a new period from that day.
    now = new Date(now.getTime() + 5 * 86_400_000);
    const downgrade = await buy('pro');
    expect(await planOf()).toMatchObject({ plan: 'business' });
    await card(downgrade, SUCCESS);
    const downgraded = await planOf();
    expect(downgraded).toMatchObject({
      plan: 'pro',
      planStatus: 'active',
      planCancelsAtPeriodEnd: false,
    });
    expect(downgraded?.planRenewsAt?.getTime()).toBeGreaterThan(
      (upgraded?.planRenewsAt?.getTime() ?? 0) + 4 * 86_400_000,
    );
  });

  it('sells a plan to the owner, cancels it at the period end, and lapses unrenewed plans to Free', async () => {
    const live = await paidSession();
    const admin = await live.addStaff('admin');
    const refused = await call(admin, 'POST', '/payment-gateway/payment', {
      plan: 'pro',
      companyId: live.company.id,
    });
    expect(refused.statusCode).toBe(403);
    const bought = await call(live.owner, 'POST', '/payment-gateway/payment', {
      plan: 'pro',
      companyId: live.company.id,
    });
    expect(bought.statusCode, bought.body).toBe(201);
    const { paymentId, checkoutUrl } = bought.json().data;
    const page = await call(
      null,
      'GET',
      `/payment-gateway/sandbox/checkouts/${checkoutIdOf(checkoutUrl)}`,
    );
    expect(page.json().data).toMatchObject({
      mode: 'subscription',
      amountMinor: 3900,
      currency: 'EUR',
    });
    await card(checkoutIdOf(checkoutUrl), SUCCESS);
    const [company] = await database.db
      .select()
      .from(companies)
      .where(eq(companies.id, live.company.id));
    expect(company).toMatchObject({
      plan: 'pro',
      planStatus: 'active',
      planCancelsAtPeriodEnd: false,
    });
    expect(company?.planRenewsAt?.getTime()).toBeGreaterThan(now.getTime() + 27 * 86_400_000);
    const shown = await call(live.owner, 'GET', `/payments/${paymentId}`);
    expect(shown.json().data).toMatchObject({ kind: 'plan', plan: 'pro', status: 'paid' });

    const cancel = await call(live.owner, 'POST', `/company/${live.company.id}/billing/cancel`);
    expect(cancel.json().data).toMatchObject({ plan: 'pro', planCancelsAtPeriodEnd: true });
    now = new Date((company?.planRenewsAt ?? now).getTime() + MINUTE);
    await sweepPayments(deps);
    const [lapsed] = await database.db
      .select()
      .from(companies)
      .where(eq(companies.id, live.company.id));
    expect(lapsed).toMatchObject({ plan: 'free', planStatus: 'cancelled', planRenewsAt: null });
    expect(
      (await call(live.owner, 'POST', `/company/${live.company.id}/billing/cancel`)).json().error
        .code,
    ).toBe('no_paid_plan');

    // Bought again and never renewed: Free once the renewal grace has passed too.
    now = new Date();
    const again = await call(live.owner, 'POST', '/payment-gateway/payment', {
      plan: 'business',
      companyId: live.company.id,
    });
    await card(checkoutIdOf(again.json().data.checkoutUrl), SUCCESS);
    now = new Date(now.getTime() + 32 * 86_400_000);
    await sweepPayments(deps);
    expect(
      (await database.db.select().from(companies).where(eq(companies.id, live.company.id)))[0]
        ?.plan,
    ).toBe('business');
    now = new Date(now.getTime() + 3 * 86_400_000);
    await sweepPayments(deps);
    expect(
      (await database.db.select().from(companies).where(eq(companies.id, live.company.id)))[0]
        ?.plan,
    ).toBe('free');
  });

  it('100 visitors racing for the last 5 places: at most 5 held, and expired holds free their places', async () => {
    const live = await paidSession({ capacity: 5 });
    const visitors = await Promise.all(Array.from({ length: 100 }, () => createTestUser(t)));
    const results = await Promise.all(
      visitors.map((visitor) =>
        call(visitor, 'POST', '/queues/sessions/tokens', { sessionId: live.session.id }),
      ),
    );
    const taken = results.filter((r) => r.statusCode === 201);
    expect(taken).toHaveLength(5);
    expect(
      results
        .filter((r) => r.statusCode === 409)
        .every((r) => r.json().error.code === 'session_full'),
    ).toBe(true);
    const live1 = await database.db
      .select()
      .from(queueTokens)
      .where(eq(queueTokens.sessionId, live.session.id));
    expect(live1.filter((row) => row.status === 'pending_payment')).toHaveLength(5);
    now = new Date(now.getTime() + 16 * MINUTE);
    expect((await sweepPayments(deps)).released).toBeGreaterThanOrEqual(5);
    const later = visitors.slice(50, 60);
    const second = await Promise.all(
      later.map((visitor) =>
        call(visitor, 'POST', '/queues/sessions/tokens', { sessionId: live.session.id }),
      ),
    );
    expect(second.filter((r) => r.statusCode === 201)).toHaveLength(5);
    const rows = await database.db
      .select()
      .from(queueTokens)
      .where(eq(queueTokens.sessionId, live.session.id));
    expect(rows.filter((row) => row.status !== 'cancelled')).toHaveLength(5);
  });

  it('delivers the sandbox webhook over HTTP to the listening server', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const live = await paidSession();
    const visitor = await createTestUser(t);
    const token = await take(visitor, live.session.id);
    const { checkoutUrl } = (await checkout(visitor, token.id)).json().data;
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const paid = await fetch(
      `http://127.0.0.1:${port}/api/payment-gateway/sandbox/checkouts/${checkoutIdOf(checkoutUrl)}/pay`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ number: SUCCESS, expiry: '12/40', cvc: '123', name: 'A' }),
      },
    );
    expect(paid.status).toBe(200);
    await t.app.payments.sandbox?.settled();
    expect((await tokenRow(token.id))?.status).toBe('waiting');
  });
});
