import { BOOKING_LIVE_WINDOW_MINUTES } from '@upnext/contract/tokens';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema/index.ts';
import { queueTokens } from '../../db/schema/tokens.ts';
import type { EventPublisher } from '../../lib/events.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createLiveSession } from '../../test/live-session.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely here; their schemas are checked by the app
type Json = Record<string, any>;
type Published = { destination: string; body: Json };

/**
 * Issue 11 (3, 4): the live state every screen reads is computed from token rows by one
 * function, carries the session's status and visitor notes, says who called a token, keeps
 * far-off bookings out of the line, and survives a double click.
 */
describe.each(testDrivers)('live state of a session (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  /** The clock of the app: real time plus what a test moves it by. */
  let offsetMs = 0;
  const published: Published[] = [];
  const publisher: EventPublisher = {
    publish: (destination, body) => published.push({ destination, body: body as Json }),
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(
      database,
      {},
      { publisher, clock: () => new Date(Date.now() + offsetMs) },
    );
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  const send = (
    method: 'GET' | 'POST',
    url: string,
    user: TestUser | undefined,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: { ...(user?.headers ?? {}), ...headers },
    });
  const post = (url: string, user: TestUser | undefined, payload: unknown) =>
    send('POST', url, user, payload);
  const get = (url: string, user?: TestUser) => send('GET', url, user);
  const take = (user: TestUser, payload: Json, headers: Record<string, string> = {}) =>
    send('POST', '/queues/sessions/tokens', user, payload, headers);
  const next = async (user: TestUser, sessionId: string) =>
    (await post('/queues/sessions/next-token', user, { sessionId })).json().data;
  const act = (user: TestUser, tokenId: string, action: string) =>
    post(`/queues/sessions/tokens/${tokenId}/${action}`, user, {});
  const stateEvents = (sessionId: string) =>
    published
      .filter((p) => p.destination === `/topic/session/${sessionId}`)
      .map((p) => p.body)
      .filter((body) => body.type === 'session.state');

  /** The counts of one session as each screen reads them. */
  async function countsEverywhere(live: Awaited<ReturnType<typeof createLiveSession>>) {
    const { session, queue, owner } = live;
    const one = await get(`/company/queues/${queue.id}/sessions/${session.id}`, owner);
    const query = await post('/queues/sessions/query', owner, {
      queueId: queue.id,
      from: session.date,
    });
    const visitor = await createTestUser(t);
    const joinList = await get(`/queues/${queue.id}/sessions?from=${session.date}`, visitor);
    const mine = await get(`/queues/sessions?date=${session.date}`, owner);
    const find = (list: Json[]) => list.find((s) => s.id === session.id)?.counts;
    return {
      session: one.json().data.counts,
      query: find(query.json().data),
      joinPage: find(joinList.json().data),
      sessionControl: find(mine.json().data),
      board: (await get(`/queues/sessions/${session.id}/board`)).json().data,
      lastState: stateEvents(session.id).at(-1),
    };
  }

  it('counts from token rows on every screen after a priority call, a cancellation and a no-show', async () => {
    const live = await createLiveSession(t, { tokensPerVisitor: 2 });
    const staff = await live.addStaff();
    const visitors = await Promise.all([1, 2, 3, 4].map(() => createTestUser(t)));
    const tokens: Json[] = [];
    for (const visitor of visitors) {
      tokens.push((await take(visitor, { sessionId: live.session.id })).json().data);
    }
    const [a, b, c, d] = tokens as [Json, Json, Json, Json];
    const urgent = (
      await take(staff, { sessionId: live.session.id, visitorName: 'Urgent', priority: 3 })
    ).json().data;
    expect((await next(staff, live.session.id)).called.id).toBe(urgent.id);
    await post('/queues/sessions/tokens-cancel', visitors[1], { tokenId: b.id });
    expect((await next(staff, live.session.id)).called.id).toBe(a.id);
    await act(staff, a.id, 'no-show');
    expect((await next(staff, live.session.id)).called.id).toBe(c.id);
    await act(staff, c.id, 'start');

    // One waiting (d), one serving (c): neither the served, cancelled or no-show tokens
    // nor the one being served count as waiting.
    const expected = {
      issued: 5,
      booked: 0,
      waiting: 1,
      called: 0,
      serving: 1,
      served: 1,
      noShows: 1,
      cancelled: 1,
      nowServing: c.number,
    };
    const seen = await countsEverywhere(live);
    expect(seen.session).toEqual(expected);
    expect(seen.query).toEqual(expected);
    expect(seen.joinPage).toEqual(expected);
    expect(seen.sessionControl).toEqual(expected);
    expect(seen.board.waiting).toBe(1);
    expect(seen.lastState).toMatchObject({ waitingCount: 1, status: 'open' });
    const mine = await post('/queues/sessions/tokens-query', visitors[3], { mine: true });
    expect(mine.json().data[0]).toMatchObject({ id: d.id, position: 1 });

    // A cancelled session has nobody waiting, and says so at once.
    const cancelled = await post('/queues/sessions/status', live.owner, {
      sessionId: live.session.id,
      status: 'cancelled',
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data.counts).toMatchObject({ waiting: 0, serving: 0, cancelled: 3 });
    const after = await countsEverywhere(live);
    expect(after.session).toMatchObject({ waiting: 0, serving: 0, cancelled: 3, nowServing: null });
    expect(after.board).toMatchObject({ status: 'cancelled', waiting: 0 });
    expect(after.lastState).toMatchObject({ status: 'cancelled', waitingCount: 0 });
  });

  it('gives the board, the session topic and the token the status and visitor notes, never staff notes', async () => {
    const live = await createLiveSession(t);
    await database.db
      .update(sessions)
      .set({ notes: 'Dr Lee covers from 11:00', visitorNotes: 'Running 15 minutes late' })
      .where(eq(sessions.id, live.session.id));
    const visitor = await createTestUser(t);
    const token = (await take(visitor, { sessionId: live.session.id })).json().data;
    expect(token).toMatchObject({ sessionStatus: 'open', sessionNotes: 'Running 15 minutes late' });

    const paused = await post('/queues/sessions/status', live.owner, {
      sessionId: live.session.id,
      status: 'paused',
    });
    expect(paused.statusCode).toBe(200);
    expect(stateEvents(live.session.id).at(-1)).toMatchObject({
      status: 'paused',
      notes: 'Running 15 minutes late',
    });
    const board = (await get(`/queues/sessions/${live.session.id}/board`)).json().data;
    expect(board).toMatchObject({ status: 'paused', notes: 'Running 15 minutes late' });
    const mine = (await post('/queues/sessions/tokens-query', visitor, { mine: true })).json().data;
    expect(mine[0]).toMatchObject({
      sessionStatus: 'paused',
      sessionNotes: 'Running 15 minutes late',
    });

    const list = await get(`/queues/${live.queue.id}/sessions?from=${live.session.date}`, visitor);
    expect(list.json().data[0]).toMatchObject({
      notes: '',
      visitorNotes: 'Running 15 minutes late',
    });
    const staffView = await get(
      `/company/queues/${live.queue.id}/sessions/${live.session.id}`,
      live.owner,
    );
    expect(staffView.json().data.notes).toBe('Dr Lee covers from 11:00');
    expect(JSON.stringify(board)).not.toContain('Dr Lee');
  });

  it('says who called a token; only they serve it, unless another takes it over', async () => {
    const live = await createLiveSession(t);
    const first = await live.addStaff();
    const second = await live.addStaff();
    const visitor = await createTestUser(t);
    const token = (await take(visitor, { sessionId: live.session.id })).json().data;
    const called = (await next(first, live.session.id)).called;
    expect(called).toMatchObject({ id: token.id, calledBy: first.userId, calledByMe: true });

    const tokensFor = async (user: TestUser) =>
      (await post('/queues/sessions/tokens-query', user, { sessionId: live.session.id })).json()
        .data[0];
    expect(await tokensFor(first)).toMatchObject({ calledBy: first.userId, calledByMe: true });
    expect(await tokensFor(second)).toMatchObject({ calledBy: first.userId, calledByMe: false });
    expect(await tokensFor(visitor)).toMatchObject({ calledBy: null, calledByMe: false });

    for (const action of ['start', 'complete']) {
      const refused = await act(second, token.id, action);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({
        code: 'token_called_by_other',
        details: { calledBy: first.userId },
      });
    }
    const [row] = await database.db.select().from(queueTokens).where(eq(queueTokens.id, token.id));
    expect(row).toMatchObject({ status: 'called', calledBy: first.userId });

    const takenOver = await act(second, token.id, 'take-over');
    expect(takenOver.json().data).toMatchObject({
      status: 'called',
      calledBy: second.userId,
      calledByMe: true,
    });
    expect((await act(first, token.id, 'complete')).json().error.code).toBe(
      'token_called_by_other',
    );
    expect((await act(second, token.id, 'complete')).json().data.status).toBe('served');
    expect((await act(second, token.id, 'take-over')).json().error.code).toBe(
      'invalid_token_transition',
    );
  });

  it(`keeps a booking out of the line until ${BOOKING_LIVE_WINDOW_MINUTES} minutes before its slot`, async () => {
    const live = await createLiveSession(t, {
      tokensPerVisitor: 3,
      slots: { slotMinutes: 60, capacityPerSlot: 2 },
    });
    const visitor = await createTestUser(t);
    const walkIn = (await take(visitor, { sessionId: live.session.id })).json().data;
    // Two hours ahead: the first slot starting after now is within the hour, the next not.
    const booked = (
      await post('/queues/sessions/slots/tokens', visitor, {
        serviceId: live.serviceId,
        slotNo: live.futureSlotNo + 1,
      })
    ).json().data;
    const slotStart = new Date(booked.slotStartsAt).getTime();
    const minutesAway = (slotStart - Date.now()) / 60_000;
    expect(booked).toMatchObject({ status: 'booked', position: null });
    // Its estimate is its slot's time, not a place in the line.
    expect(Math.abs(booked.estimatedWaitMinutes - minutesAway)).toBeLessThanOrEqual(1);
    expect((await get(`/queues/sessions/${live.session.id}/board`)).json().data.waiting).toBe(1);

    const other = await createTestUser(t);
    const later = (await take(other, { sessionId: live.session.id })).json().data;
    // Not called ahead of walk-ins while its slot is far off.
    expect((await next(live.owner, live.session.id)).called.id).toBe(walkIn.id);

    offsetMs = slotStart - Date.now() - (BOOKING_LIVE_WINDOW_MINUTES - 1) * 60_000;
    try {
      const due = (await post('/queues/sessions/tokens-query', visitor, { mine: true }))
        .json()
        .data.find((row: Json) => row.id === booked.id);
      expect(due.position).toBe(1);
      // Within the window: ahead of the walk-in with a lower number.
      expect((await next(live.owner, live.session.id)).called.id).toBe(booked.id);
      expect((await next(live.owner, live.session.id)).called.id).toBe(later.id);

      // Booked within the window of its slot: in the line at once.
      offsetMs = slotStart + 3_600_000 - Date.now() - 5 * 60_000;
      const late = await createTestUser(t);
      const lateBooking = await post('/queues/sessions/slots/tokens', late, {
        serviceId: live.serviceId,
        slotNo: live.futureSlotNo + 2,
      });
      expect(lateBooking.json().data).toMatchObject({ status: 'waiting', position: 1 });
    } finally {
      offsetMs = 0;
    }
  });

  it('estimates from recent service times, not the whole history of the queue', async () => {
    const live = await createLiveSession(t, { capacity: 500 });
    const served = (count: number, from: number, seconds: number, daysAgo: number) =>
      Array.from({ length: count }, (_, i) => ({
        sessionId: live.session.id,
        number: from + i,
        displayNumber: `A-${from + i}`,
        kind: 'walk_in' as const,
        status: 'served' as const,
        serviceSeconds: seconds,
        joinedAt: new Date(Date.now() - daysAgo * 86_400_000 - 60_000),
        completedAt: new Date(Date.now() - daysAgo * 86_400_000 + i * 1000),
        updatedAt: new Date(),
      }));
    // Long services 40 days ago and 20 older recent ones are outside the last 50.
    await database.db.insert(queueTokens).values(served(30, 100, 3600, 40));
    await database.db.insert(queueTokens).values(served(20, 200, 1800, 5));
    await database.db.insert(queueTokens).values(served(50, 300, 120, 1));
    await database.db
      .update(sessions)
      .set({ lastIssuedNumber: 400 })
      .where(eq(sessions.id, live.session.id));
    const visitor = await createTestUser(t);
    const token = (await take(visitor, { sessionId: live.session.id })).json().data;
    expect(token).toMatchObject({ position: 1, estimatedWaitMinutes: 2 });
    const board = (await get(`/queues/sessions/${live.session.id}/board`)).json().data;
    expect(board.averageServiceSeconds).toBe(120);
  });

  it('takes one token for two identical requests with one Idempotency-Key', async () => {
    const live = await createLiveSession(t, { tokensPerVisitor: 1 });
    const visitor = await createTestUser(t);
    const key = { 'idempotency-key': crypto.randomUUID() };
    const [one, two] = await Promise.all([
      take(visitor, { sessionId: live.session.id }, key),
      take(visitor, { sessionId: live.session.id }, key),
    ]);
    expect([one.statusCode, two.statusCode]).toEqual([201, 201]);
    expect(two.json().data.id).toBe(one.json().data.id);
    const rows = await database.db
      .select()
      .from(queueTokens)
      .where(eq(queueTokens.sessionId, live.session.id));
    expect(rows).toHaveLength(1);

    // A new attempt (new key) at the limit is refused and names the token held.
    const again = await take(
      visitor,
      { sessionId: live.session.id },
      {
        'idempotency-key': crypto.randomUUID(),
      },
    );
    expect(again.json().error).toMatchObject({
      code: 'token_limit_reached',
      details: { tokenIds: [one.json().data.id] },
    });
    // Someone else's key is not a way to read their token.
    const stranger = await createTestUser(t);
    const reused = await take(stranger, { sessionId: live.session.id }, key);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error.code).toBe('idempotency_key_reused');
    expect(
      await database.db
        .select()
        .from(queueTokens)
        .where(eq(queueTokens.sessionId, live.session.id)),
    ).toHaveLength(1);
  });

  it('does not offer slots that have started, and refuses to book them', async () => {
    const live = await createLiveSession(t, { slots: { slotMinutes: 30, capacityPerSlot: 2 } });
    const visitor = await createTestUser(t);
    const slots = (await get(`/queues/sessions/services/${live.serviceId}/slots`, visitor)).json()
      .data as Json[];
    const started = slots.filter((slot) => new Date(slot.startsAt).getTime() <= Date.now());
    expect(started.length).toBeGreaterThan(0);
    expect(started.every((slot) => slot.bookable === false)).toBe(true);
    expect(slots.find((slot) => slot.slotNo === live.futureSlotNo)?.bookable).toBe(true);
    const refused = await post('/queues/sessions/slots/tokens', visitor, {
      serviceId: live.serviceId,
      slotNo: started[0]?.slotNo,
    });
    expect(refused.json().error.code).toBe('slot_in_past');
  });
});
