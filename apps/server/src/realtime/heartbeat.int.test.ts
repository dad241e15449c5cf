import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { createTestUser, type TestUser } from '../test/users.ts';
import { Inbox, listen, rawSocket, wssUrl } from './testing.ts';

// Heart-beats at 300 ms instead of the production 20000 ms, so negotiation shows in a test.
describe('STOMP heart-beats', () => {
  let database: TestDatabase;
  let t: TestApp;
  let base: string;
  let user: TestUser;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    t = await buildTestApp(database, { REALTIME_HEARTBEAT_MS: '300' });
    base = await listen(t.app);
    user = await createTestUser(t);
  });

  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  async function connect(heartbeat: string) {
    const raw = await rawSocket(wssUrl(base, user.accessToken));
    const beats = new Inbox<number>();
    raw.ws.on('message', (data) => {
      if (String(data) === '\n') beats.push(Date.now());
    });
    raw.ws.send(`CONNECT\naccept-version:1.2\nheart-beat:${heartbeat}\n\n\0`);
    const connected = await raw.frames.next();
    return { ...raw, connected, beats };
  }

  it('offers its interval and sends at the larger of its own and the client wish', async () => {
    const client = await connect('0,600');
    expect(client.connected).toContain('\nheart-beat:300,300\n');
    const first = await client.beats.next();
    const second = await client.beats.next();
    // max(300, 600): the server never beats more often than the client asked for.
    expect(second - first).toBeGreaterThanOrEqual(550);
    client.ws.close();
  });

  it('sends no heart-beats to a client that wants none', async () => {
    const client = await connect('0,0');
    // A message sent after a wait of several intervals arrives with no heart-beat before it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    client.ws.send('SUBSCRIBE\nid:1\ndestination:/topic/none\n\n\0');
    const next = await client.frames.next();
    expect(next.split('\n')[0]).toBe('ERROR');
    expect(client.beats.size).toBe(0);
  });

  it('closes a connection whose client promised heart-beats and went silent', async () => {
    const client = await connect('300,0');
    const start = Date.now();
    const code = await client.closed;
    expect(code).toBe(1006); // terminated, not a close handshake
    expect(Date.now() - start).toBeGreaterThanOrEqual(550);
  });

  it('keeps a connection alive while its client keeps beating', async () => {
    const client = await connect('300,0');
    const beating = setInterval(() => client.ws.send('\n'), 150);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(client.ws.readyState).toBe(client.ws.OPEN);
    clearInterval(beating);
    client.ws.close();
  });
});

describe('STOMP connections at shutdown', () => {
  it('get a clean close (1001) when the app closes', async () => {
    const database = await createTestDatabase('pglite');
    const t = await buildTestApp(database);
    const base = await listen(t.app);
    const user = await createTestUser(t);
    const raw = await rawSocket(wssUrl(base, user.accessToken));
    raw.ws.send('CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0');
    await raw.frames.next();
    await t.app.close();
    expect(await raw.closed).toBe(1001);
    expect(t.app.realtime.stats()).toEqual({ connections: 0, subscriptions: 0 });
    await database.close();
  });
});
