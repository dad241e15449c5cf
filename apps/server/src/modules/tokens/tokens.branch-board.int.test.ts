import { QUEUE_BOARD_MAX_SESSIONS } from '@upnext/contract/tokens';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, subQueues } from '../../db/schema/index.ts';
import { addDays, localDate } from '../../lib/dates.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createLiveSession } from '../../test/live-session.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';

type Live = Awaited<ReturnType<typeof createLiveSession>>;

describe.each(testDrivers)('branch boards (%s)', (driver) => {
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

  const today = () => localDate(new Date(), 'UTC');
  const post = (url: string, user: TestUser, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api${url}`, payload, headers: user.headers });
  const boardOf = (queueId: string, user?: TestUser) =>
    t.app.inject({
      method: 'GET',
      url: `/api/queues/${queueId}/board`,
      ...(user ? { headers: user.headers } : {}),
    });

  let later = 0;
  /** Another session of the live session's queue, today unless told, at its own counter. */
  async function sessionAt(
    live: Live,
    counter: string,
    options: { status?: 'scheduled' | 'open' | 'closed' | 'cancelled'; date?: string } = {},
  ) {
    const [subQueue] = await database.db
      .insert(subQueues)
      .values({ queueId: live.queue.id, name: counter })
      .returning();
    const base = live.session;
    const [session] = await database.db
      .insert(sessions)
      .values({
        queueId: live.queue.id,
        subQueueId: subQueue?.id ?? null,
        date: options.date ?? today(),
        startTime: base.startTime,
        endTime: base.endTime,
        timezone: 'UTC',
        // Each later than the one before, so the board's order is known.
        startsAt: new Date(base.startsAt.getTime() + ++later * 60_000),
        endsAt: base.endsAt,
        capacity: 100,
        status: options.status ?? 'open',
      })
      .returning();
    if (!session) throw new Error('session not created');
    return session;
  }

  /** A live session dated today (the fixture's window began an hour ago, maybe yesterday). */
  async function liveToday(options: Parameters<typeof createLiveSession>[1] = {}) {
    const live = await createLiveSession(t, options);
    await database.db
      .update(sessions)
      .set({ date: today() })
      .where(eq(sessions.id, live.session.id));
    return live;
  }

  async function callIn(live: Live, sessionId: string, visitors: number) {
    for (let i = 0; i < visitors; i++) {
      const visitor = await createTestUser(t);
      expect((await post('/queues/sessions/tokens', visitor, { sessionId })).statusCode).toBe(201);
    }
    for (let i = 0; i < visitors; i++) {
      expect(
        (await post('/queues/sessions/next-token', live.owner, { sessionId })).statusCode,
      ).toBe(200);
    }
  }

  it("shows every counter's calls of the queue today, and no session that is over or elsewhere", async () => {
    const live = await liveToday();
    const second = await sessionAt(live, 'Counter 2 — Dr Perera');
    await sessionAt(live, 'Closed desk', { status: 'closed' });
    await sessionAt(live, 'Cancelled desk', { status: 'cancelled' });
    await sessionAt(live, 'Tomorrow desk', { date: addDays(today(), 1) });
    const scheduled = await sessionAt(live, 'Later desk', { status: 'scheduled' });
    const other = await liveToday();

    // Read once before the calls: the calls must drop the cached boards at once.
    const before = await boardOf(live.queue.id);
    expect(before.statusCode).toBe(200);
    await callIn(live, live.session.id, 3);
    await callIn(live, second.id, 1);
    await callIn(other, other.session.id, 1);

    const answer = await boardOf(live.queue.id);
    expect(answer.statusCode).toBe(200);
    const board = answer.json().data;
    expect(board).toMatchObject({
      queueId: live.queue.id,
      queueName: 'General practice',
      joinCode: live.queue.joinCode,
    });
    expect(
      board.sessions.map((s: { sessionId: string; counter: string | null }) => [
        s.sessionId,
        s.counter,
      ]),
    ).toEqual([
      [live.session.id, 'Counter 1'],
      [second.id, 'Counter 2 — Dr Perera'],
      [scheduled.id, 'Later desk'],
    ]);
    const [first, next, later] = board.sessions;
    expect(first).toMatchObject({
      status: 'open',
      nowServing: 'A-003',
      nowServingCounter: 'Counter 1',
      recentlyCalled: [
        { label: 'A-002', counter: 'Counter 1' },
        { label: 'A-001', counter: 'Counter 1' },
      ],
      waiting: 0,
    });
    expect(next).toMatchObject({
      nowServing: 'A-001',
      nowServingCounter: 'Counter 2 — Dr Perera',
      recentlyCalled: [],
    });
    expect(later).toMatchObject({ status: 'scheduled', nowServing: null, nowServingAt: null });
    // The same board as the session's own, and no visitor's details.
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/queues/sessions/${live.session.id}/board`,
    });
    expect(own.json().data).toEqual(first);
    expect(answer.body).not.toMatch(/@example|visitorName|email/i);
  });

  it('answers an empty board for a queue with no session today', async () => {
    const live = await createLiveSession(t);
    await database.db
      .update(sessions)
      .set({ date: addDays(today(), -2) })
      .where(eq(sessions.id, live.session.id));
    const board = await boardOf(live.queue.id);
    expect(board.statusCode).toBe(200);
    expect(board.json().data.sessions).toEqual([]);
  });

  it(`shows at most ${QUEUE_BOARD_MAX_SESSIONS} sessions`, async () => {
    const live = await liveToday();
    for (let i = 0; i < QUEUE_BOARD_MAX_SESSIONS; i++) await sessionAt(live, `Desk ${i + 2}`);
    const board = await boardOf(live.queue.id);
    expect(board.json().data.sessions).toHaveLength(QUEUE_BOARD_MAX_SESSIONS);
  });

  it("hides a private queue's board from outsiders as if it did not exist", async () => {
    const live = await liveToday({ visibility: 'private' });
    const visitor = await createTestUser(t);
    for (const caller of [undefined, visitor]) {
      const hidden = await boardOf(live.queue.id, caller);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().error.code).toBe('not_found');
      expect(hidden.body).not.toContain('General practice');
    }
    const missing = await boardOf(crypto.randomUUID());
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
    const member = await boardOf(live.queue.id, live.owner);
    expect(member.statusCode).toBe(200);
    expect(member.json().data.sessions).toHaveLength(1);
    const staff = await boardOf(live.queue.id, await live.addStaff('staff', { assigned: false }));
    expect(staff.json().data.sessions).toHaveLength(1);
  });

  it('refuses a malformed queue id with validation_failed', async () => {
    const bad = await t.app.inject({ method: 'GET', url: '/api/queues/not-a-uuid/board' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('validation_failed');
  });
});
