import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyTokenMonths, queueTokens, sessions } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createLiveSession } from '../../test/live-session.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely here; their schemas are checked by the app
type Json = Record<string, any>;

/**
 * Issue 15: the counts every screen shows come from counters the database keeps on the
 * session row (and the plan's monthly tokens from a counter per company and month). They must
 * equal a fresh count of the token rows after any mix of changes, concurrent ones included.
 */
describe.each(testDrivers)('token counters (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database);
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  const post = (url: string, user: TestUser, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api${url}`,
      payload: payload as object,
      headers: user.headers,
    });

  /** The session row's counters beside a fresh count of its token rows. */
  async function countersAndRows(sessionId: string) {
    const [row] = await database.db.select().from(sessions).where(eq(sessions.id, sessionId));
    const counted = await database.db
      .select({ status: queueTokens.status, n: sql<number>`count(*)::int` })
      .from(queueTokens)
      .where(eq(queueTokens.sessionId, sessionId))
      .groupBy(queueTokens.status);
    const fresh = Object.fromEntries(counted.map((c) => [c.status, c.n]));
    return {
      counters: {
        pending_payment: row?.tokensPendingPayment,
        booked: row?.tokensBooked,
        waiting: row?.tokensWaiting,
        called: row?.tokensCalled,
        serving: row?.tokensServing,
        served: row?.tokensServed,
        no_show: row?.tokensNoShow,
        cancelled: row?.tokensCancelled,
      },
      rows: {
        pending_payment: fresh.pending_payment ?? 0,
        booked: fresh.booked ?? 0,
        waiting: fresh.waiting ?? 0,
        called: fresh.called ?? 0,
        serving: fresh.serving ?? 0,
        served: fresh.served ?? 0,
        no_show: fresh.no_show ?? 0,
        cancelled: fresh.cancelled ?? 0,
      },
    };
  }

  async function monthCounter(companyId: string) {
    const rows = await database.db
      .select()
      .from(companyTokenMonths)
      .where(eq(companyTokenMonths.companyId, companyId));
    return rows.reduce((sum, row) => sum + row.tokens, 0);
  }

  it('equal a fresh count after concurrent issues, calls, services, no-shows, requeues and cancellations', async () => {
    const live = await createLiveSession(t, {
      capacity: 500,
      tokensPerVisitor: 2,
      slots: { slotMinutes: 60, capacityPerSlot: 5 },
    });
    const sessionId = live.session.id;
    const staff = await live.addStaff();
    const visitors = await Promise.all([1, 2, 3, 4].map(() => createTestUser(t)));
    // 30 walk-ins at once from two desks, a priority one, visitors' own tokens and a booking.
    const desks = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post('/queues/sessions/tokens', i % 2 ? staff : live.owner, {
          sessionId,
          visitorName: `Walk-in ${i}`,
        }),
      ),
    );
    expect(desks.map((r) => r.statusCode)).toEqual(Array(30).fill(201));
    await post('/queues/sessions/tokens', staff, { sessionId, visitorName: 'Urgent', priority: 2 });
    const own: Json[] = [];
    for (const visitor of visitors) {
      own.push((await post('/queues/sessions/tokens', visitor, { sessionId })).json().data);
    }
    const booked = await post('/queues/sessions/slots/tokens', visitors[0] as TestUser, {
      serviceId: live.serviceId,
      slotNo: live.futureSlotNo + 1,
    });
    expect(booked.json().data.status).toBe('booked');

    // Two desks calling at once, then every other change a token can go through.
    const calls = await Promise.all(
      [live.owner, staff].map((user) => post('/queues/sessions/next-token', user, { sessionId })),
    );
    const [first, second] = calls.map((r) => r.json().data.called as Json);
    await post(`/queues/sessions/tokens/${first?.id}/start`, live.owner, {});
    await post(`/queues/sessions/tokens/${second?.id}/no-show`, staff, {});
    const third = (await post('/queues/sessions/next-token', staff, { sessionId })).json().data
      .called;
    await post(`/queues/sessions/tokens/${third.id}/requeue`, staff, {});
    await post('/queues/sessions/next-token', live.owner, { sessionId }); // completes `first`
    await post('/queues/sessions/tokens-cancel', visitors[1] as TestUser, { tokenId: own[1]?.id });
    await post('/queues/sessions/tokens-cancel', staff, { tokenId: own[2]?.id });

    const mixed = await countersAndRows(sessionId);
    expect(mixed.counters).toEqual(mixed.rows);
    expect(mixed.rows).toMatchObject({ served: 1, no_show: 1, cancelled: 2, booked: 1 });
    expect(await monthCounter(live.company.id)).toBe(36);

    // A hold released unpaid stops counting for the plan; reinstated, it counts again.
    const held = own[3]?.id as string;
    await database.db
      .update(queueTokens)
      .set({ status: 'cancelled', cancelReason: 'payment_expired' })
      .where(eq(queueTokens.id, held));
    expect(await monthCounter(live.company.id)).toBe(35);
    await database.db
      .update(queueTokens)
      .set({ status: 'waiting', cancelReason: null })
      .where(eq(queueTokens.id, held));
    expect(await monthCounter(live.company.id)).toBe(36);

    // Cancelling the session cancels every live token at once.
    const cancelled = await post('/queues/sessions/status', live.owner, {
      sessionId,
      status: 'cancelled',
    });
    expect(cancelled.statusCode).toBe(200);
    const after = await countersAndRows(sessionId);
    expect(after.counters).toEqual(after.rows);
    expect(after.rows).toMatchObject({ waiting: 0, called: 0, serving: 0, booked: 0 });
    expect(cancelled.json().data.counts).toMatchObject({ issued: 36, waiting: 0, served: 1 });
  });
});
