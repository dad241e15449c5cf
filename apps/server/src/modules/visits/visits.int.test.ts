import { topics } from '@upnext/contract/realtime-topics';
import { VISIT_KEY_PATTERN } from '@upnext/contract/visits';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceAreas } from '../../db/schema/index.ts';
import { queueTokens } from '../../db/schema/tokens.ts';
import { connectStomp, listen, subscribeOutcome, wssUrl } from '../../realtime/testing.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createLiveSession } from '../../test/live-session.ts';
import { createTestUser } from '../../test/users.ts';

/**
 * A token's status link (issue 16): a walk-in without an account follows their visit live,
 * sees "your turn" with the counter, and leaves the queue, all by the key alone; the link
 * shows nothing of other visitors and stops working when the visit ends.
 */
describe.each(testDrivers)('status links (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database);
    base = await listen(t.app);
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  const keyOf = (statusUrl: string) => new URL(statusUrl).pathname.split('/').pop() ?? '';
  const visit = (key: string) => t.app.inject({ method: 'GET', url: `/api/visits/${key}` });
  const leave = (key: string) => t.app.inject({ method: 'POST', url: `/api/visits/${key}/leave` });

  /** A walk-in issued at the desk by staff: a name, no account. */
  async function walkIn(live: Awaited<ReturnType<typeof createLiveSession>>, name: string) {
    const issued = await t.app.inject({
      method: 'POST',
      url: '/api/queues/sessions/tokens',
      headers: live.owner.headers,
      payload: { sessionId: live.session.id, visitorName: name, visitorPhone: '+447911123456' },
    });
    expect(issued.statusCode, issued.body).toBe(201);
    return issued.json().data as { id: string; statusUrl: string; displayNumber: string };
  }

  it('gives every token an unguessable link, different for each token', async () => {
    const live = await createLiveSession(t);
    const first = await walkIn(live, 'Ada Walker');
    const second = await walkIn(live, 'Ben Stone');
    const [a, b] = [keyOf(first.statusUrl), keyOf(second.statusUrl)];
    expect(first.statusUrl).toBe(`${t.config.publicUrl}/visit/${a}`);
    expect(a).toMatch(VISIT_KEY_PATTERN);
    expect(a).not.toBe(b);
    // 43 base64url characters of 32 bytes, two version-4 UUIDs' worth: 244 random bits.
    const bytes = Buffer.from(a, 'base64url');
    expect(bytes).toHaveLength(32);
    expect([(bytes[6] ?? 0) >> 4, (bytes[22] ?? 0) >> 4]).toEqual([4, 4]);
    const [row] = await database.db
      .select({ statusKey: queueTokens.statusKey })
      .from(queueTokens)
      .where(eq(queueTokens.id, first.id));
    expect(row?.statusKey).toBe(a);
  });

  it('shows the holder their place, wait and context, and nothing about other visitors', async () => {
    const live = await createLiveSession(t);
    await database.db.insert(serviceAreas).values({
      queueId: live.queue.id,
      name: 'Harbour Street branch',
      address: '12 Harbour Street',
      city: 'Leith',
      latitude: 55.975,
      longitude: -3.17,
    });
    const ahead = await walkIn(live, 'Ada Walker');
    const mine = await walkIn(live, 'Ben Stone');
    const answer = await visit(keyOf(mine.statusUrl));
    expect(answer.statusCode).toBe(200);
    const shown = answer.json().data;
    expect(shown).toMatchObject({
      displayNumber: mine.displayNumber,
      status: 'waiting',
      position: 2,
      // The queue's default threshold: three ahead or fewer.
      turnApproaching: true,
      // No history yet: the service type's planned 10 minutes for each of the two places.
      estimatedWaitMinutes: 20,
      canLeave: true,
      companyName: live.company.name,
      queueName: 'General practice',
      counter: 'Counter 1',
      serviceName: null,
      place: {
        name: 'Harbour Street branch',
        address: '12 Harbour Street',
        city: 'Leith',
        mapUrl: expect.stringContaining('mlat=55.975'),
      },
      session: { id: live.session.id, status: 'open', timezone: 'UTC' },
    });
    const text = answer.body;
    for (const other of [
      'Ada Walker',
      ahead.displayNumber,
      ahead.id,
      '+447911123456',
      'Ben Stone',
    ]) {
      expect(text).not.toContain(other);
    }
  });

  it('is live: the link subscribes without signing in and hears its call with the counter', async () => {
    const live = await createLiveSession(t, { visibility: 'private' });
    const mine = await walkIn(live, 'Cara Hill');
    const key = keyOf(mine.statusUrl);
    // A private queue's session topic is closed to anonymous browsers; the link's is not.
    expect(await subscribeOutcome(base, undefined, topics.session(live.session.id))).toBe(
      'refused',
    );
    const browser = await connectStomp(wssUrl(base));
    await browser.subscribe(topics.visit(key));
    const called = await t.app.inject({
      method: 'POST',
      url: '/api/queues/sessions/next-token',
      headers: live.owner.headers,
      payload: { sessionId: live.session.id },
    });
    expect(called.statusCode).toBe(200);
    const heard: Array<{ type: string; label?: string; serviceArea?: string | null }> = [];
    while (!heard.some((event) => event.type === 'session.now_serving')) {
      heard.push(JSON.parse((await browser.messages.next()).body));
    }
    expect(heard.find((event) => event.type === 'session.now_serving')).toMatchObject({
      label: mine.displayNumber,
      serviceArea: 'Counter 1',
    });
    const now = (await visit(key)).json().data;
    expect(now).toMatchObject({ status: 'called', counter: 'Counter 1', position: null });
    await browser.close();
  }, 60_000);

  it('lets the holder leave the queue, then stops working', async () => {
    const live = await createLiveSession(t);
    const mine = await walkIn(live, 'Dan Reed');
    const key = keyOf(mine.statusUrl);
    const left = await leave(key);
    expect(left.statusCode).toBe(200);
    expect(left.json().data).toMatchObject({ status: 'cancelled', canLeave: false });
    const [row] = await database.db.select().from(queueTokens).where(eq(queueTokens.id, mine.id));
    expect(row).toMatchObject({ status: 'cancelled', cancelReason: 'cancelled_by_visitor' });

    for (const again of [await visit(key), await leave(key)]) {
      expect(again.statusCode).toBe(410);
      expect(again.json().error.code).toBe('visit_ended');
    }
    expect(await subscribeOutcome(base, undefined, topics.visit(key))).toBe('refused');
  }, 60_000);

  it('stops working once the visit is served', async () => {
    const live = await createLiveSession(t);
    const mine = await walkIn(live, 'Eve Park');
    const key = keyOf(mine.statusUrl);
    const next = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/queues/sessions/next-token',
        headers: live.owner.headers,
        payload,
      });
    expect((await next({ sessionId: live.session.id })).statusCode).toBe(200);
    // The next call completes the one being served.
    expect((await next({ sessionId: live.session.id })).statusCode).toBe(200);
    const ended = await visit(key);
    expect(ended.statusCode).toBe(410);
    expect(ended.json().error).toMatchObject({
      code: 'visit_ended',
      details: { status: 'served' },
    });
  });

  it('refuses keys that name nothing, malformed keys, and changes nothing', async () => {
    const live = await createLiveSession(t);
    const mine = await walkIn(live, 'Finn Cole');
    const key = keyOf(mine.statusUrl);
    const wrong = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    const unknown = await leave(wrong);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('visit_not_found');
    const malformed = await visit('short');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('validation_failed');
    expect(await subscribeOutcome(base, undefined, topics.visit(wrong))).toBe('refused');
    const [row] = await database.db.select().from(queueTokens).where(eq(queueTokens.id, mine.id));
    expect(row?.status).toBe('waiting');
  }, 60_000);

  it('gives the link to a holder with an account too', async () => {
    const live = await createLiveSession(t);
    const visitor = await createTestUser(t);
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/queues/sessions/tokens',
      headers: visitor.headers,
      payload: { sessionId: live.session.id },
    });
    const { statusUrl } = taken.json().data;
    expect((await visit(keyOf(statusUrl))).json().data).toMatchObject({
      status: 'waiting',
      position: 1,
    });
  });
});
