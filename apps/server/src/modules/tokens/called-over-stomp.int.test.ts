import { topics } from '@upnext/contract/realtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStomp, giveProfile, listen, wssUrl } from '../../realtime/testing.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createLiveSession } from '../../test/live-session.ts';
import { createTestUser } from '../../test/users.ts';

/**
 * The whole path, as a visitor's browser meets it: a stompjs client subscribed to its own user
 * topic over /wss hears "called" when staff press next over HTTP, and the board hears it too.
 */
describe.each(testDrivers)('called, live over STOMP (%s)', (driver) => {
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

  it('tells the subscribed visitor and the session topic when staff call their token', async () => {
    const live = await createLiveSession(t);
    const visitor = await createTestUser(t);
    const subscribeId = await giveProfile(database.db, visitor.userId);
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/queues/sessions/tokens',
      headers: visitor.headers,
      payload: { sessionId: live.session.id },
    });
    expect(taken.statusCode).toBe(201);

    const visitorClient = await connectStomp(wssUrl(base, visitor.accessToken));
    await visitorClient.subscribe(topics.user(subscribeId));
    const board = await connectStomp(base);
    await board.subscribe(topics.session(live.session.id));

    const next = await t.app.inject({
      method: 'POST',
      url: '/api/queues/sessions/next-token',
      headers: live.owner.headers,
      payload: { sessionId: live.session.id },
    });
    expect(next.statusCode).toBe(200);

    const heard: Array<{ type: string; label?: string; tokenId?: string }> = [];
    while (!heard.some((event) => event.type === 'token.called')) {
      heard.push(JSON.parse((await visitorClient.messages.next()).body));
    }
    expect(heard.find((event) => event.type === 'token.called')).toMatchObject({
      tokenId: taken.json().data.id,
      label: 'A-001',
    });
    const boardEvents: Array<{ type: string; label?: string }> = [];
    while (!boardEvents.some((event) => event.type === 'session.now_serving')) {
      boardEvents.push(JSON.parse((await board.messages.next()).body));
    }
    expect(boardEvents.find((event) => event.type === 'session.now_serving')?.label).toBe('A-001');
    await visitorClient.close();
    await board.close();
  }, 60_000);
});
