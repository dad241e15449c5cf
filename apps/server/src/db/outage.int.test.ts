import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../test/database.ts';
import { type Database, openDatabase } from './client.ts';

/**
 * A TCP proxy in front of PostgreSQL that the test can cut: `blackhole` keeps every socket
 * open and answers nothing (a database that stopped answering, a dead link), `refuse` closes
 * the port and resets what was open (a database that is down).
 */
async function cuttableProxy(target: { host: string; port: number }) {
  let mode: 'pass' | 'blackhole' | 'refuse' = 'pass';
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode !== 'pass') return; // accepted, never answered
    const upstream = net.connect(target);
    track(upstream);
    client.on('data', (bytes) => mode === 'pass' && upstream.write(bytes));
    upstream.on('data', (bytes) => mode === 'pass' && client.write(bytes));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const resetAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port,
    blackhole() {
      mode = 'blackhole';
    },
    async refuse() {
      mode = 'refuse';
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        resetAll();
      });
    },
    /** The link comes back; what was cut off mid-conversation is reset, as TCP would. */
    async restore() {
      resetAll();
      if (!server.listening) {
        await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      }
      mode = 'pass';
    },
    async close() {
      resetAll();
      if (server.listening) await new Promise((resolve) => server.close(resolve));
    },
  };
}

const onPostgres = testDrivers.includes('postgres');

describe.skipIf(!onPostgres)('a database outage on PostgreSQL', () => {
  let database: TestDatabase;
  let proxied: Database;
  let proxy: Awaited<ReturnType<typeof cuttableProxy>>;
  let test: TestApp;
  let base: string;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const url = new URL(database.url as string);
    proxy = await cuttableProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
    proxied = await openDatabase({ driver: 'postgres', url: url.toString(), poolSize: 4 });
    test = await buildTestApp(proxied);
    base = await test.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await test?.app.close();
    await proxied?.close();
    await proxy?.close();
    await database?.close();
  });

  /** Each call must be answered, not left hanging; the bound is far above the server's limits. */
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(20_000) });
  const signIn = () =>
    call('/auth/v1/token?grant_type=password', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.test', password: 'not-a-password' }),
    });

  async function expectUnavailable() {
    const [api, health, ready, auth] = await Promise.all([
      call('/api/queues/by-code/ABCD1234'),
      call('/api/health'),
      call('/api/ready'),
      signIn(),
    ]);
    for (const answer of [api, health, ready]) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe(
        'database_unavailable',
      );
    }
    expect(auth.status).toBe(503);
    expect(auth.headers.get('retry-after')).toBe('5');
    expect(((await auth.json()) as { error_code: string }).error_code).toBe('database_unavailable');
  }

  async function expectRecovered() {
    let health = await call('/api/health');
    for (let attempt = 0; attempt < 20 && health.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      health = await call('/api/health');
    }
    expect(health.status).toBe(200);
    expect((await call('/api/queues/by-code/ABCD1234')).status).toBe(404);
    expect((await signIn()).status).toBe(400);
  }

  it('answers normally through the proxy', async () => {
    expect((await call('/api/health')).status).toBe(200);
    expect((await call('/api/queues/by-code/ABCD1234')).status).toBe(404);
    expect((await signIn()).status).toBe(400);
  });

  it('a database that stops answering gives 503 with Retry-After, then recovers by itself', async () => {
    proxy.blackhole();
    await expectUnavailable();
    await proxy.restore();
    await expectRecovered();
  });

  it('a database that refuses connections gives 503 with Retry-After, then recovers by itself', async () => {
    await proxy.refuse();
    await expectUnavailable();
    await proxy.restore();
    await expectRecovered();
  });
});
