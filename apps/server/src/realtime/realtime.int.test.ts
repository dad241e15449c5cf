import { randomUUID } from 'node:crypto';
import { topics } from '@upnext/contract/realtime';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinRequests } from '../db/schema/queues.ts';
import { queueTokens } from '../db/schema/tokens.ts';
import { buildTestApp, type TestApp } from '../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../test/database.ts';
import { createTestUser, type TestUser } from '../test/users.ts';
import type { CallAuthorizer } from './realtime.policy.ts';
import {
  addMember,
  connectStomp,
  createSessionFixture,
  type Fixture,
  giveProfile,
  listen,
  rawSocket,
  upgradeStatus,
  wssUrl,
} from './testing.ts';

describe.each(testDrivers)('realtime STOMP endpoint (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let base: string;
  let staff: TestUser;
  let visitor: TestUser;
  let visitorSubscribeId: string;
  let staffSubscribeId: string;
  let publicSession: Fixture;
  let privateSession: Fixture;
  let archivedSession: Fixture;
  const calls: Array<{ from: string; message: unknown }> = [];

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    // A call rule for the tests: forwards `{ to }` to that meeting topic, refuses the rest.
    const authorizeCall: CallAuthorizer = async (caller, message) => {
      calls.push({ from: caller.userId, message });
      const to = (message as { to?: unknown }).to;
      return typeof to === 'string'
        ? { allow: true, destination: topics.meeting(to) }
        : { allow: false, message: 'No meeting for this call.' };
    };
    t = await buildTestApp(database, {}, { authorizeCall });
    base = await listen(t.app);
    staff = await createTestUser(t);
    visitor = await createTestUser(t);
    visitorSubscribeId = await giveProfile(database.db, visitor.userId);
    staffSubscribeId = await giveProfile(database.db, staff.userId);
    publicSession = await createSessionFixture(database.db, { visibility: 'public' });
    privateSession = await createSessionFixture(database.db, { visibility: 'private' });
    archivedSession = await createSessionFixture(database.db, { queueStatus: 'archived' });
    await addMember(database.db, privateSession.companyId, staff.userId, staff.email);
  });

  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  it('connects with a valid token over the v12.stomp subprotocol and negotiates STOMP 1.2', async () => {
    const raw = await rawSocket(wssUrl(base, staff.accessToken));
    expect(raw.ws.protocol).toBe('v12.stomp');
    raw.ws.send('CONNECT\naccept-version:1.1,1.2\nhost:localhost\nheart-beat:0,0\n\n\0');
    const connected = await raw.frames.next();
    expect(connected.split('\n')[0]).toBe('CONNECTED');
    expect(connected).toContain('\nversion:1.2\n');
    expect(connected).toContain('\nheart-beat:20000,20000\n');
    raw.ws.close();
  });

  it('refuses a bad token at the upgrade with 401, and unknown paths with 404', async () => {
    expect(await upgradeStatus(wssUrl(base, 'not-a-jwt'))).toBe(401);
    expect(await upgradeStatus(wssUrl(base, `${staff.accessToken}x`))).toBe(401);
    expect(await upgradeStatus(base.replace('/wss', '/elsewhere'))).toBe(404);
    expect(await upgradeStatus(base)).toBe('open'); // anonymous: public session topics only
  });

  it('refuses a token whose session was revoked (logout)', async () => {
    const gone = await createTestUser(t);
    const { authSessions } = await import('../db/schema/auth.ts');
    await database.db.delete(authSessions).where(eq(authSessions.id, gone.sessionId));
    expect(await upgradeStatus(wssUrl(base, gone.accessToken))).toBe(401);
  });

  it("refuses SUBSCRIBE and SEND once the token's session has been logged out", async () => {
    const leaving = await createTestUser(t);
    const client = await connectStomp(wssUrl(base, leaving.accessToken));
    await client.subscribe(topics.session(publicSession.sessionId));
    const { authSessions } = await import('../db/schema/auth.ts');
    await database.db.delete(authSessions).where(eq(authSessions.id, leaving.sessionId));
    client.client.subscribe(topics.session(publicSession.sessionId), () => {});
    const error = await client.errors.next();
    expect(error.headers.message).toBe('Session ended');
    expect(error.body).toBe('Your session is not valid any more. Please sign in again.');
    await client.closed;
  });

  it('lets anonymous clients follow public sessions but nothing else', async () => {
    const anon = await connectStomp(base);
    await anon.subscribe(topics.session(publicSession.sessionId));
    anon.client.subscribe(topics.session(privateSession.sessionId), () => {});
    const error = await anon.errors.next();
    expect(error.headers.message).toBe('Access denied');
    expect(error.body).toContain(`You may not follow session ${privateSession.sessionId}`);
    await anon.closed;

    const again = await connectStomp(base);
    again.client.subscribe(topics.user(visitorSubscribeId), () => {});
    expect((await again.errors.next()).body).toContain('Sign in to subscribe');
    await again.closed;
  });

  it("refuses someone else's user and meeting topics, and allows one's own", async () => {
    const client = await connectStomp(wssUrl(base, visitor.accessToken));
    await client.subscribe(topics.user(visitorSubscribeId));
    await client.subscribe(topics.meeting(visitorSubscribeId));
    client.client.subscribe(topics.user(staffSubscribeId), () => {});
    const error = await client.errors.next();
    expect(error.headers.message).toBe('Access denied');
    expect(error.body).toBe('You may only subscribe to your own user topic.');
    await client.closed;

    const other = await connectStomp(wssUrl(base, visitor.accessToken));
    other.client.subscribe(topics.meeting(staffSubscribeId), () => {});
    expect((await other.errors.next()).body).toBe(
      'You may only subscribe to your own meeting topic.',
    );
    await other.closed;
  });

  it('lets only company members follow private and archived sessions', async () => {
    const member = await connectStomp(wssUrl(base, staff.accessToken));
    await member.subscribe(topics.session(privateSession.sessionId));
    await member.close();

    for (const hidden of [privateSession.sessionId, archivedSession.sessionId, randomUUID()]) {
      const outsider = await connectStomp(wssUrl(base, visitor.accessToken));
      outsider.client.subscribe(topics.session(hidden), () => {});
      expect((await outsider.errors.next()).body).toBe(`You may not follow session ${hidden}.`);
      await outsider.closed;
    }

    // An approved join request lets a visitor follow the private queue's sessions.
    const requester = await createTestUser(t);
    await database.db.insert(joinRequests).values({
      queueId: privateSession.queueId,
      userId: requester.userId,
      status: 'approved',
    });
    const approved = await connectStomp(wssUrl(base, requester.accessToken));
    await approved.subscribe(topics.session(privateSession.sessionId));
    await approved.close();

    const unknown = await connectStomp(wssUrl(base, visitor.accessToken));
    unknown.client.subscribe('/topic/everything', () => {});
    expect((await unknown.errors.next()).body).toBe('There is no topic /topic/everything.');
    await unknown.closed;
  });

  it('accepts SEND only to /app/call, and forwards only what the call rule allows', async () => {
    const elsewhere = await connectStomp(wssUrl(base, visitor.accessToken));
    elsewhere.client.publish({ destination: topics.user(staffSubscribeId), body: '{}' });
    expect((await elsewhere.errors.next()).body).toBe('Messages may only be sent to /app/call.');
    await elsewhere.closed;

    const anon = await connectStomp(base);
    anon.client.publish({ destination: '/app/call', body: '{}' });
    expect((await anon.errors.next()).body).toBe('Sign in to place calls.');
    await anon.closed;

    const callee = await connectStomp(wssUrl(base, staff.accessToken));
    await callee.subscribe(topics.meeting(staffSubscribeId));
    const caller = await connectStomp(wssUrl(base, visitor.accessToken));
    const offer = { type: 'offer', offer: { sdp: 'v=0' }, to: staffSubscribeId };
    caller.client.publish({ destination: '/app/call', body: JSON.stringify(offer) });
    const received = await callee.messages.next();
    expect(JSON.parse(received.body)).toEqual(offer);
    expect(calls.at(-1)?.from).toBe(visitor.userId);

    caller.client.publish({ destination: '/app/call', body: JSON.stringify({ type: 'offer' }) });
    const refused = await caller.errors.next();
    expect(refused.headers.message).toBe('Call refused');
    expect(refused.body).toBe('No meeting for this call.');
    await caller.closed;
    await callee.close();
  });

  it('answers malformed frames with an ERROR and closes', async () => {
    const cases: Array<[string, string]> = [
      ['FOO\n\n\0', 'Unknown command "FOO"'],
      ['SUBSCRIBE\nid:1\ndestination:/topic/x\n\n\0', 'The first frame must be CONNECT'],
      ['CONNECT\naccept-version:1.0\n\n\0', 'Supported protocol versions are 1.2'],
      [
        'CONNECT\naccept-version:1.2\nheart-beat:soon\n\n\0',
        'heart-beat must be two whole numbers',
      ],
      ['CONNECT\naccept-version:1.2\nno colon here\n\n\0', 'Malformed header line'],
    ];
    const afterConnect: Array<[string, string]> = [
      ['SEND\ndestination:/app/c\\xall\n\n\0', 'Undefined escape sequence'],
      ['SUBSCRIBE\ndestination:/topic/x\n\n\0', 'SUBSCRIBE needs the id and destination headers.'],
      ['SEND\ndestination:/app/call\ncontent-length:2\n\nabc\0', 'longer than its content-length'],
      [
        'SEND\ndestination:/app/call\ncontent-length:x\n\n\0',
        'content-length must be a whole number',
      ],
      ['ACK\nid:1\n\n\0', 'ACK is not supported'],
      [`SEND\ndestination:/app/call\n\n${'x'.repeat(70_000)}\0`, 'Frame larger than'],
    ];
    const connect = 'CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0';
    for (const [frames, expected] of [
      ...cases.map(([f, e]) => [f, e] as const),
      ...afterConnect.map(([f, e]) => [connect + f, e] as const),
    ]) {
      const raw = await rawSocket(wssUrl(base, visitor.accessToken));
      raw.ws.send(frames);
      let frame = await raw.frames.next();
      if (frame.startsWith('CONNECTED')) frame = await raw.frames.next();
      expect(frame.split('\n')[0], frames.slice(0, 40)).toBe('ERROR');
      expect(frame, frames.slice(0, 40)).toContain(expected);
      await raw.closed;
    }
  });

  it('parses frames split across messages, several per message, with escaped headers', async () => {
    const raw = await rawSocket(wssUrl(base, visitor.accessToken));
    raw.ws.send('CONNECT\naccept-version:1.2\n');
    raw.ws.send('heart-beat:0,0\n\n\0\n\r\n');
    expect((await raw.frames.next()).split('\n')[0]).toBe('CONNECTED');
    const destination = topics.session(publicSession.sessionId);
    raw.ws.send(
      `SUBSCRIBE\nid:a\\cb\ndestination:${destination}\nreceipt:r1\n\n\0SUBSCRIBE\nid:2\ndestination:${destination}\nreceipt:r\\n2\n\n\0`,
    );
    expect(await raw.frames.next()).toBe('RECEIPT\nreceipt-id:r1\n\n\0');
    expect(await raw.frames.next()).toBe('RECEIPT\nreceipt-id:r\\n2\n\n\0');
    t.app.realtime.publisher.publish(destination, { n: 1 });
    const first = await raw.frames.next();
    const second = await raw.frames.next();
    expect(first).toContain('\nsubscription:a\\cb\n');
    expect(second).toContain('\nsubscription:2\n');
    expect(first).toContain('\ncontent-length:7\n');
    expect(first.endsWith('\n\n{"n":1}\0')).toBe(true);
    raw.ws.send('DISCONNECT\nreceipt:bye\n\n\0');
    expect(await raw.frames.next()).toBe('RECEIPT\nreceipt-id:bye\n\n\0');
    expect(await raw.closed).toBe(1000);
  });

  it('delivers a published event to subscribers of that topic only', async () => {
    const watcher = await connectStomp(base);
    await watcher.subscribe(topics.session(publicSession.sessionId));
    const staffWatcher = await connectStomp(wssUrl(base, staff.accessToken));
    await staffWatcher.subscribe(topics.session(privateSession.sessionId));
    await staffWatcher.subscribe(topics.user(staffSubscribeId));

    t.app.realtime.publisher.publish(topics.session(publicSession.sessionId), { n: 'public' });
    t.app.realtime.publisher.publish(topics.session(privateSession.sessionId), { n: 'private' });
    t.app.realtime.publisher.publish(topics.user(staffSubscribeId), { n: 'mine' });

    const seen = await watcher.messages.next();
    expect(JSON.parse(seen.body)).toEqual({ n: 'public' });
    expect(seen.headers.destination).toBe(topics.session(publicSession.sessionId));
    expect(seen.headers['content-type']).toBe('application/json');
    expect(JSON.parse((await staffWatcher.messages.next()).body)).toEqual({ n: 'private' });
    expect(JSON.parse((await staffWatcher.messages.next()).body)).toEqual({ n: 'mine' });
    // Each client got exactly what it subscribed to: a marker proves nothing else is queued.
    t.app.realtime.publisher.publish(topics.session(publicSession.sessionId), { n: 'marker' });
    expect(JSON.parse((await watcher.messages.next()).body)).toEqual({ n: 'marker' });
    expect(staffWatcher.messages.size).toBe(0);
    await watcher.close();
    await staffWatcher.close();
  });

  it('never sends events of a rolled-back transaction', async () => {
    const watcher = await connectStomp(base);
    await watcher.subscribe(topics.session(publicSession.sessionId));
    const take = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/queues/sessions/tokens',
        headers: visitor.headers,
        payload: { sessionId: publicSession.sessionId },
      });
    const tokenRows = async () =>
      database.db
        .select()
        .from(queueTokens)
        .where(eq(queueTokens.sessionId, publicSession.sessionId));
    // The product's own take-a-token fails after its insert: the outbox write that follows
    // in the same transaction is refused by the database.
    await database.db.execute(
      sql.raw(`create function refuse_outbox() returns trigger language plpgsql as
        $$ begin raise exception 'outbox unavailable'; end $$`),
    );
    await database.db.execute(
      sql.raw(`create trigger refuse_outbox before insert on notifications
        for each row execute function refuse_outbox()`),
    );
    try {
      const failed = await take();
      expect(failed.statusCode).toBe(500);
      expect(await tokenRows()).toHaveLength(0);
    } finally {
      await database.db.execute(sql.raw('drop trigger refuse_outbox on notifications'));
      await database.db.execute(sql.raw('drop function refuse_outbox()'));
    }
    const taken = await take();
    expect(taken.statusCode).toBe(201);
    // The first event is the committed token's: nothing came of the rolled-back one.
    const first = JSON.parse((await watcher.messages.next()).body);
    expect(first).toMatchObject({ type: 'session.state', waitingCount: 1 });
    // And the only one: a marker published now is the next message.
    t.app.realtime.publisher.publish(topics.session(publicSession.sessionId), { n: 'marker' });
    expect(JSON.parse((await watcher.messages.next()).body)).toEqual({ n: 'marker' });
    expect(await tokenRows()).toHaveLength(1);
    await watcher.close();
  });

  it('counts open connections and their subscriptions', async () => {
    // Every earlier test closed its clients; the server may still be seeing the last one go.
    await expect.poll(() => t.app.realtime.stats()).toEqual({ connections: 0, subscriptions: 0 });
    const one = await connectStomp(base);
    await one.subscribe(topics.session(publicSession.sessionId));
    const two = await connectStomp(wssUrl(base, staff.accessToken));
    await two.subscribe(topics.session(publicSession.sessionId));
    await two.subscribe(topics.user(staffSubscribeId));
    expect(t.app.realtime.stats()).toEqual({ connections: 2, subscriptions: 3 });
    await two.close();
    await expect.poll(() => t.app.realtime.stats()).toEqual({ connections: 1, subscriptions: 1 });
    await one.close();
  });

  it('stops delivering after UNSUBSCRIBE', async () => {
    const watcher = await connectStomp(base);
    const destination = topics.session(publicSession.sessionId);
    const subscription = watcher.client.subscribe(destination, (m) => watcher.messages.push(m), {
      receipt: 's',
    });
    await new Promise<void>((resolve) => watcher.client.watchForReceipt('s', () => resolve()));
    expect(t.app.realtime.broker.subscriberCount(destination)).toBeGreaterThan(0);
    subscription.unsubscribe({ receipt: 'u' } as never);
    await new Promise<void>((resolve) => watcher.client.watchForReceipt('u', () => resolve()));
    const other = await connectStomp(base);
    await other.subscribe(destination);
    t.app.realtime.publisher.publish(destination, { n: 'after' });
    await other.messages.next();
    expect(watcher.messages.size).toBe(0);
    await watcher.close();
    await other.close();
  });
});
