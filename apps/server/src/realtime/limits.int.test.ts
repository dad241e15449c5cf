import { topics } from '@upnext/contract/realtime-topics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../test/database.ts';
import { createSessionFixture, type Inbox, listen, rawSocket, upgradeStatus } from './testing.ts';

const connect = (heartbeat: string) => `CONNECT\naccept-version:1.2\nheart-beat:${heartbeat}\n\n\0`;

// Timeouts of a few hundred milliseconds instead of the production seconds and minutes.
describe.each(testDrivers)('STOMP timeouts (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database, {
      REALTIME_CONNECT_TIMEOUT_MS: '300',
      REALTIME_HEARTBEAT_MS: '200',
      REALTIME_IDLE_TIMEOUT_MS: '600',
    });
    base = await listen(t.app);
  });

  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  it('closes a socket that never sends CONNECT, with an ERROR saying why', async () => {
    const start = Date.now();
    const raw = await rawSocket(base);
    const error = await raw.frames.next();
    expect(error.split('\n')[0]).toBe('ERROR');
    expect(error).toContain('Send CONNECT within 300 ms of opening.');
    expect(await raw.closed).toBe(1008);
    expect(Date.now() - start).toBeGreaterThanOrEqual(250);
  });

  it.each([
    ['offers no heart-beats', '0,0'],
    ['promises one every 100 s', '100000,0'],
  ])(
    'ends the connection of a client that %s once nothing arrived for the idle timeout',
    async (_, heartbeat) => {
      const raw = await rawSocket(base);
      raw.ws.send(connect(heartbeat));
      expect((await raw.frames.next()).split('\n')[0]).toBe('CONNECTED');
      const start = Date.now();
      const error = await raw.frames.next();
      expect(error.split('\n')[0]).toBe('ERROR');
      expect(error).toContain('message:Idle timeout');
      expect(error).toContain('Nothing received for 600 ms.');
      expect(await raw.closed).toBe(1008);
      expect(Date.now() - start).toBeGreaterThanOrEqual(550);
    },
  );

  it('keeps a connection without heart-beats open while anything arrives', async () => {
    const raw = await rawSocket(base);
    raw.ws.send(connect('0,0'));
    expect((await raw.frames.next()).split('\n')[0]).toBe('CONNECTED');
    // End-of-lines between frames: what a heart-beat is, whether negotiated or not.
    const talking = setInterval(() => raw.ws.send('\n'), 200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    clearInterval(talking);
    expect(raw.ws.readyState).toBe(raw.ws.OPEN);
    expect(raw.frames.size).toBe(0);
    raw.ws.close();
  });
});

describe.each(testDrivers)('STOMP connection limits (%s)', (driver) => {
  let database: TestDatabase;
  let behindProxy: TestApp;
  let direct: TestApp;
  let proxied: string;
  let plain: string;
  // Sockets stay unCONNECTed for as long as a test needs them.
  const limits = { REALTIME_MAX_CONNECTIONS_PER_IP: '2', REALTIME_CONNECT_TIMEOUT_MS: '60000' };
  const from = (address: string) => ({ 'x-forwarded-for': address });

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    behindProxy = await buildTestApp(database, {
      ...limits,
      REALTIME_MAX_CONNECTIONS: '5',
      TRUST_PROXY: '127.0.0.1',
    });
    proxied = await listen(behindProxy.app);
    direct = await buildTestApp(database, limits);
    plain = await listen(direct.app);
  });

  afterAll(async () => {
    await behindProxy?.app.close();
    await direct?.app.close();
    await database?.close();
  });

  it('caps sockets per client address (429) and in all (503), with addresses from a trusted proxy', async () => {
    const open = [await rawSocket(proxied), await rawSocket(proxied)];
    expect(await upgradeStatus(proxied)).toBe(429);
    // Behind the trusted proxy, each client its own allowance.
    open.push(await rawSocket(proxied, from('198.51.100.1')));
    open.push(await rawSocket(proxied, from('198.51.100.1')));
    expect(await upgradeStatus(proxied, from('198.51.100.1'))).toBe(429);
    open.push(await rawSocket(proxied, from('198.51.100.2')));
    expect(await upgradeStatus(proxied, from('198.51.100.3'))).toBe(503);
    // A socket that closes makes room.
    open[0]?.ws.close();
    await expect.poll(() => upgradeStatus(proxied, from('198.51.100.3'))).toBe('open');
    for (const socket of open) socket.ws.close();
  });

  it('ignores X-Forwarded-For from a client that is not a trusted proxy', async () => {
    const open = [
      await rawSocket(plain, from('198.51.100.1')),
      await rawSocket(plain, from('198.51.100.2')),
    ];
    expect(await upgradeStatus(plain, from('198.51.100.3'))).toBe(429);
    for (const socket of open) socket.ws.close();
  });
});

describe.each(testDrivers)('STOMP upgrade Origin (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let base: string;
  const origin = (value: string, more: Record<string, string> = {}) => ({ origin: value, ...more });

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database, {
      PUBLIC_URL: 'https://queue.example.com',
      CORS_ORIGINS: 'https://partner.example.com',
      TRUST_PROXY: '127.0.0.1',
    });
    base = await listen(t.app);
  });

  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  it('refuses a page of another site with 403', async () => {
    expect(await upgradeStatus(base, origin('https://evil.example.com'))).toBe(403);
    expect(await upgradeStatus(base, origin('null'))).toBe(403);
    // The right host on another port is another site.
    expect(await upgradeStatus(base, origin('https://queue.example.com:8443'))).toBe(403);
  });

  it('accepts its own pages, the CORS_ORIGINS sites and clients that are not browsers', async () => {
    expect(await upgradeStatus(base, origin('https://queue.example.com'))).toBe('open');
    expect(await upgradeStatus(base, origin('https://partner.example.com'))).toBe('open');
    // The host the request was sent to (Vite's dev proxy keeps the page's).
    expect(await upgradeStatus(base, origin(new URL(base).origin.replace('ws:', 'http:')))).toBe(
      'open',
    );
    // ...or, from a trusted proxy, the host it forwarded.
    const front = { 'x-forwarded-host': 'front.example.com' };
    expect(await upgradeStatus(base, origin('https://front.example.com', front))).toBe('open');
    expect(await upgradeStatus(base)).toBe('open');
  });
});

// A client that stops reading: its socket is paused, so what the server sends piles up first
// in the kernel's buffers (a few MiB on loopback), then in the server's.
describe.each(testDrivers)('STOMP slow consumers (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let base: string;
  let destination: string;
  const pad = 'x'.repeat(128 * 1024);

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database, { REALTIME_SLOW_CONSUMER_TIMEOUT_MS: '2000' });
    base = await listen(t.app);
    destination = topics.session((await createSessionFixture(database.db)).sessionId);
  });

  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  async function pausedSubscriber() {
    const raw = await rawSocket(base);
    raw.ws.send(connect('0,0'));
    expect((await raw.frames.next()).split('\n')[0]).toBe('CONNECTED');
    raw.ws.send(`SUBSCRIBE\nid:s\ndestination:${destination}\nreceipt:r\n\n\0`);
    expect(await raw.frames.next()).toBe('RECEIPT\nreceipt-id:r\n\n\0');
    raw.ws.pause();
    return raw;
  }

  /** The frames that arrive until (and with) the first one `last` picks out. */
  async function readUntil(frames: Inbox<string>, last: (frame: string) => boolean) {
    const read: string[] = [];
    for (;;) {
      const frame = await frames.next();
      read.push(frame);
      if (last(frame)) return read;
    }
  }
  const n = (frame: string) => Number(/"n":(\d+)/.exec(frame)?.[1]);

  it('holds back what a lagging client cannot take, then sends the latest marked x-dropped', async () => {
    const raw = await pausedSubscriber();
    const count = 120; // 15 MiB: more than the kernel takes
    for (let i = 0; i < count; i++) t.app.realtime.publisher.publish(destination, { n: i, pad });
    raw.ws.resume();
    const got = await readUntil(raw.frames, (frame) => n(frame) === count - 1);
    const latest = got.at(-1) ?? '';
    const dropped = Number(/\nx-dropped:(\d+)\n/.exec(latest)?.[1]);
    // What arrived came in order; what did not is counted on the latest.
    expect(got.map(n)).toEqual([...got.keys()].map((i) => (i < got.length - 1 ? i : count - 1)));
    expect(dropped).toBeGreaterThan(0);
    expect(got.length + dropped).toBe(count);
    expect(got.slice(0, -1).some((frame) => frame.includes('x-dropped'))).toBe(false);
    // Caught up: messages flow as before.
    t.app.realtime.publisher.publish(destination, { n: count });
    const next = await raw.frames.next();
    expect(n(next)).toBe(count);
    expect(next).not.toContain('x-dropped');
    raw.ws.close();
  });

  it('tells a client that stays behind for the slow-consumer timeout, then closes it', async () => {
    const raw = await pausedSubscriber();
    for (let i = 0; i < 120; i++) t.app.realtime.publisher.publish(destination, { n: i, pad });
    // The server gives up on it (and drops its subscription) while the client still sleeps.
    await expect.poll(() => t.app.realtime.stats().subscriptions, { timeout: 10_000 }).toBe(0);
    raw.ws.resume();
    const error = (await readUntil(raw.frames, (f) => f.startsWith('ERROR'))).at(-1) ?? '';
    expect(error).toContain('message:Slow consumer');
    expect(error).toContain('Messages to this connection have waited for more than 2000 ms.');
    expect(await raw.closed).toBe(1008);
  });

  it('tells a client more than 4 MiB behind at once, then closes it', async () => {
    const raw = await pausedSubscriber();
    t.app.realtime.publisher.publish(destination, { n: 0, pad: pad.repeat(128) }); // 16 MiB
    await expect.poll(() => t.app.realtime.stats().subscriptions, { timeout: 10_000 }).toBe(0);
    raw.ws.resume();
    const error = (await readUntil(raw.frames, (f) => f.startsWith('ERROR'))).at(-1) ?? '';
    expect(error).toContain('More than 4194304 bytes sent to this connection are unread.');
    expect(await raw.closed).toBe(1008);
  });
});
