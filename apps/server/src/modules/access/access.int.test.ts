import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinRequests, queueTokens, sessions, slots } from '../../db/schema/index.ts';
import { listen, subscribeOutcome } from '../../realtime/testing.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createLiveSession } from '../../test/live-session.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';

type Live = Awaited<ReturnType<typeof createLiveSession>>;

describe.each(testDrivers)('the staff rule and the session audience (%s)', (driver) => {
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
  const get = (url: string, user?: TestUser) =>
    t.app.inject({ method: 'GET', url: `/api${url}`, ...(user ? { headers: user.headers } : {}) });

  /** A waiting token, or one already called (and served, for a service time). */
  async function tokenIn(live: Live, status: 'waiting' | 'called' | 'served', calledBy?: TestUser) {
    const visitor = await createTestUser(t);
    const taken = await post('/queues/sessions/tokens', visitor, { sessionId: live.session.id });
    expect(taken.statusCode, taken.body).toBe(201);
    const id = taken.json().data.id as string;
    if (status !== 'waiting') {
      await database.db
        .update(queueTokens)
        .set({
          status,
          calledAt: new Date(),
          calledBy: calledBy?.userId ?? null,
          completedAt: status === 'served' ? new Date() : null,
        })
        .where(eq(queueTokens.id, id));
    }
    return id;
  }

  type Act = (user: TestUser) => Promise<{ statusCode: number; body: string }>;

  /** Every live action: `prepare` sets the scene in a session and returns the action itself. */
  const liveActions: Array<{
    name: string;
    prepare: (live: Live, user: TestUser) => Promise<Act>;
  }> = [
    {
      name: 'call next',
      prepare: async (live) => {
        await tokenIn(live, 'waiting');
        return (user) => post('/queues/sessions/next-token', user, { sessionId: live.session.id });
      },
    },
    ...(['recall', 'no-show', 'start', 'complete', 'requeue', 'take-over'] as const).map(
      (action) => ({
        name: action,
        prepare: async (live: Live, user: TestUser): Promise<Act> => {
          // Called by whoever acts on it: start and complete are the caller's own.
          const tokenId = await tokenIn(live, 'called', user);
          return (user) => post(`/queues/sessions/tokens/${tokenId}/${action}`, user, {});
        },
      }),
    ),
    {
      name: 'cancel a token',
      prepare: async (live) => {
        const tokenId = await tokenIn(live, 'waiting');
        return (user) => post('/queues/sessions/tokens-cancel', user, { tokenId });
      },
    },
    {
      name: 'issue a walk-in',
      prepare: async (live) => (user) =>
        post('/queues/sessions/tokens', user, {
          sessionId: live.session.id,
          visitorName: 'Walk In',
        }),
    },
    {
      name: 'correct a service time',
      prepare: async (live) => {
        const tokenId = await tokenIn(live, 'served');
        return (user) => post('/queues/sessions/service-time', user, { tokenId, seconds: 120 });
      },
    },
    {
      name: 'block slots',
      prepare: async (live) => (user) =>
        post('/queues/sessions/services/slots-status', user, {
          serviceId: live.serviceId,
          slotNos: [live.futureSlotNo],
          status: 'blocked',
        }),
    },
    ...(['paused', 'closed', 'cancelled'] as const).map((status) => ({
      name: `set the session ${status}`,
      prepare:
        async (live: Live): Promise<Act> =>
        (user) =>
          post('/queues/sessions/status', user, { sessionId: live.session.id, status }),
    })),
    {
      name: 'open the session',
      prepare: async (live) => {
        await live.setStatus('paused');
        return (user) =>
          post('/queues/sessions/status', user, { sessionId: live.session.id, status: 'open' });
      },
    },
  ];

  const scene = { slots: { slotMinutes: 30, capacityPerSlot: 2 }, mode: 'hybrid' } as const;

  const state = async (live: Live) => ({
    session: await database.db.select().from(sessions).where(eq(sessions.id, live.session.id)),
    tokens: await database.db
      .select()
      .from(queueTokens)
      .where(eq(queueTokens.sessionId, live.session.id))
      .orderBy(queueTokens.number),
    slots: await database.db.select().from(slots).orderBy(slots.sessionServiceId, slots.slotNo),
  });

  for (const action of liveActions) {
    it(`${action.name}: staff of another sub-queue are refused (403, nothing changes); assigned staff, admins and a sub-queue-less session's staff may`, async () => {
      const live = await createLiveSession(t, scene);
      const unassigned = await live.addStaff('staff', { assigned: false });

      const act = await action.prepare(live, unassigned);
      const before = await state(live);
      const refused = await act(unassigned);
      expect([refused.statusCode, JSON.parse(refused.body).error?.code]).toEqual([
        403,
        'forbidden',
      ]);
      expect(await state(live)).toEqual(before);

      for (const role of ['staff', 'admin', 'owner'] as const) {
        const fresh = await createLiveSession(t, scene);
        const user = role === 'owner' ? fresh.owner : await fresh.addStaff(role);
        const allowed = await (await action.prepare(fresh, user))(user);
        expect(allowed.statusCode, `${role}: ${allowed.body}`).toBeLessThan(300);
      }

      // A session without a sub-queue is any staff's.
      const open = await createLiveSession(t, scene);
      await database.db
        .update(sessions)
        .set({ subQueueId: null })
        .where(eq(sessions.id, open.session.id));
      const anyStaff = await open.addStaff('staff', { assigned: false });
      const allowed = await (await action.prepare(open, anyStaff))(anyStaff);
      expect(allowed.statusCode, allowed.body).toBeLessThan(300);
    });
  }

  it('lets staff of another sub-queue read the session: its tokens, slot tokens, board and figures', async () => {
    const live = await createLiveSession(t, scene);
    const unassigned = await live.addStaff('staff', { assigned: false });
    await tokenIn(live, 'waiting');
    const tokens = await post('/queues/sessions/tokens-query', unassigned, {
      sessionId: live.session.id,
    });
    expect(tokens.statusCode).toBe(200);
    expect(tokens.json().data).toHaveLength(1);
    expect(tokens.json().data[0].visitorEmail).toEqual(expect.any(String));
    expect(
      (
        await get(
          `/queues/sessions/${live.session.id}/slots/${live.futureSlotNo}/tokens`,
          unassigned,
        )
      ).statusCode,
    ).toBe(200);
    expect((await get(`/queues/sessions/${live.session.id}/board`, unassigned)).statusCode).toBe(
      200,
    );
    const figures = await post('/queues/sessions/service-time-query', unassigned, {
      sessionId: live.session.id,
    });
    expect(figures.statusCode).toBe(200);
  });

  it("gives a private queue's board and STOMP topic the same audience: members and approved requesters", async () => {
    const live = await createLiveSession(t, { visibility: 'private' });
    const approved = await createTestUser(t);
    const pending = await createTestUser(t);
    for (const [user, status] of [
      [approved, 'approved'],
      [pending, 'pending'],
    ] as const) {
      await database.db
        .insert(joinRequests)
        .values({ queueId: live.queue.id, userId: user.userId, status });
    }
    const unassigned = await live.addStaff('staff', { assigned: false });
    const base = await listen(t.app);
    const destination = `/topic/session/${live.session.id}`;
    const audience: Array<[string, TestUser | undefined, boolean]> = [
      ['owner', live.owner, true],
      ['unassigned staff', unassigned, true],
      ['approved requester', approved, true],
      ['pending requester', pending, false],
      ['anonymous', undefined, false],
    ];
    for (const [who, user, allowed] of audience) {
      const board = await get(`/queues/sessions/${live.session.id}/board`, user);
      expect([who, board.statusCode]).toEqual([who, allowed ? 200 : 404]);
      if (!allowed) expect(board.json().error.code).toBe('session_not_found');
      const outcome = await subscribeOutcome(base, user?.accessToken, destination);
      expect([who, outcome]).toEqual([who, allowed ? 'subscribed' : 'refused']);
    }
  });
});
