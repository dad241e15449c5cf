import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type IMessage } from '@stomp/stompjs';
import { topics } from '@upnext/contract/realtime';
import { eq, inArray } from 'drizzle-orm';
import { exportJWK, generateKeyPair } from 'jose';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { loadAuthKeys } from './auth/keys.ts';
import { freePort } from './auth/testing.ts';
import { loadConfig } from './config.ts';
import { notifications } from './db/schema/notifications.ts';
import { payments } from './db/schema/payments.ts';
import { queues } from './db/schema/queues.ts';
import { sessions } from './db/schema/sessions.ts';
import { queueTokens } from './db/schema/tokens.ts';
import { enqueue } from './modules/notifications/notifications.repository.ts';
import { createTestDatabase, type TestDatabase } from './test/database.ts';
import { createLiveSession } from './test/live-session.ts';
import { startLoadBalancer } from './test/load-balancer.ts';
import { createTestUser } from './test/users.ts';

/**
 * The scale-out topology of compose.yaml, as processes: two real servers (server.ts) on one
 * PostgreSQL and one Redis, behind a TCP load balancer. CI exports TEST_DATABASE_URL and
 * TEST_REDIS_URL (.ci/run starts the local servers when they do not answer).
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

type Answer = { status: number; json: Record<string, unknown> };

/** One request on a connection of its own, so the balancer picks a backend for each. */
function call(
  port: number,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        timeout: 20_000,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : {} });
          } catch (error) {
            reject(error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.end(payload);
  });
}

async function waitFor(check: () => Promise<boolean> | boolean, what: string, ms = 30_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A stompjs client as the web app uses it: it reconnects, and subscribes again on connect. */
function liveClient(url: string, destination: string) {
  const messages: IMessage[] = [];
  let connects = 0;
  const client = new Client({
    webSocketFactory: () => new WebSocket(url, ['v12.stomp']),
    reconnectDelay: 200,
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
  });
  const subscribed = new Set<number>();
  client.onConnect = () => {
    connects++;
    const receipt = `r-${connects}`;
    client.watchForReceipt(receipt, () => subscribed.add(connects));
    client.subscribe(destination, (message) => messages.push(message), { receipt });
  };
  client.activate();
  return {
    messages,
    connects: () => connects,
    /** Connected and subscribed (the latest connection's SUBSCRIBE acknowledged). */
    ready: () => client.connected && subscribed.has(connects),
    close: () => client.deactivate(),
  };
}

describe.skipIf(!databaseUrl || !redisUrl)('two instances behind a load balancer', () => {
  let database: TestDatabase;
  let smtp: SMTPServer;
  const mail: string[] = [];
  let balancer: Awaited<ReturnType<typeof startLoadBalancer>>;
  const ports: number[] = [];
  const instances: ChildProcess[] = [];
  const output: string[] = [];
  let dataDir: string;
  let live: Awaited<ReturnType<typeof createLiveSession>>;
  let t: Parameters<typeof createLiveSession>[0];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          mail.push(...session.envelope.rcptTo.map((rcpt) => rcpt.address));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpPort = (smtp.server.address() as AddressInfo).port;

    // Both instances sign and check sessions with one key, as compose.yaml has them.
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = JSON.stringify({ ...(await exportJWK(privateKey)), alg: 'ES256', kid: 'shared' });
    ports.push(await freePort(), await freePort());
    balancer = await startLoadBalancer(ports);
    dataDir = await mkdtemp(join(tmpdir(), 'upnext-scale-'));
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${balancer.port}`,
      DATABASE_URL: database.url ?? '',
      REALTIME_BUS_URL: redisUrl ?? '',
      REDIS_URL: redisUrl ?? '',
      JWT_PRIVATE_KEY: jwk,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      SEED_DEMO_DATA: 'false',
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_OTP: '3',
      SMTP_MAX_FREQUENCY: '0',
    };
    for (const [index, port] of ports.entries()) {
      const child = spawn(process.execPath, ['apps/server/src/server.ts'], {
        cwd: join(import.meta.dirname, '../../..'),
        env: {
          PATH: process.env.PATH,
          ...env,
          PORT: String(port),
          DATA_DIR: join(dataDir, `${index}`),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      instances.push(child);
    }
    for (const port of ports) {
      await waitFor(
        () =>
          call(port, 'GET', '/api/ready').then(
            (answer) => answer.status === 200,
            () => false,
          ),
        `the instance on ${port} to be ready:\n${output.join('')}`,
        60_000,
      );
    }
    const config = loadConfig({
      NODE_ENV: 'test',
      PUBLIC_URL: env.PUBLIC_URL,
      JWT_PRIVATE_KEY: jwk,
    });
    const keys = await loadAuthKeys(config.auth, dataDir);
    t = { database, keys, config };
    live = await createLiveSession(t, { capacity: 1000 });
  }, 120_000);

  afterAll(async () => {
    for (const child of instances) child.kill('SIGKILL');
    await balancer?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    await database?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const [first, second] = [0, 1];
  const takeToken = (port: number, name: string) =>
    call(
      port,
      'POST',
      '/api/queues/sessions/tokens',
      { sessionId: live.session.id, visitorName: name },
      { ...live.owner.headers, 'idempotency-key': randomUUID() },
    );

  it('shows a visitor connected to one instance what staff did on the other', async () => {
    const visitor = liveClient(
      `ws://127.0.0.1:${ports[first]}/wss`,
      topics.session(live.session.id),
    );
    try {
      await waitFor(visitor.ready, 'the visitor to subscribe');
      const taken = await takeToken(ports[second] as number, 'Ada');
      expect(taken.status).toBe(201);
      await waitFor(() => visitor.messages.length > 0, 'the session event on the other instance');
    } finally {
      await visitor.close();
    }
  });

  it('delivers each notification once, with both instances running the outbox', async () => {
    const recipients = Array.from(
      { length: 40 },
      (_, n) => `visitor-${n}-${randomUUID()}@example.com`,
    );
    await enqueue(
      database.db,
      recipients.map((recipient) => ({
        channel: 'email' as const,
        recipient,
        template: 'test',
        subject: 'Your turn is near',
        text: 'Please come to the desk.',
      })),
      new Date(),
    );
    const delivered = () => mail.filter((address) => recipients.includes(address));
    const statuses = async () =>
      (
        await database.db
          .select({ status: notifications.status })
          .from(notifications)
          .where(inArray(notifications.recipient, recipients))
      ).map((row) => row.status);
    await waitFor(() => delivered().length >= recipients.length, 'every message', 60_000);
    // A batch is marked sent after its last message is accepted, so the rows may lag the mail.
    await waitFor(
      async () => (await statuses()).every((status) => status === 'sent'),
      'every message marked sent',
      10_000,
    );
    expect(await statuses()).toEqual(recipients.map(() => 'sent'));
    expect(delivered().sort()).toEqual([...recipients].sort());
  });

  it('releases an unpaid hold once, with both instances sweeping', async () => {
    const paid = await createLiveSession(t, { capacity: 10 });
    await database.db
      .update(queues)
      .set({ priceMinor: 2500, currency: 'GBP' })
      .where(eq(queues.id, paid.queue.id));
    const visitor = await createTestUser(t);
    const taken = await call(
      ports[first] as number,
      'POST',
      '/api/queues/sessions/tokens',
      { sessionId: paid.session.id },
      visitor.headers,
    );
    expect(taken.status).toBe(201);
    const tokenId = (taken.json.data as { id: string }).id;
    const checkout = await call(
      ports[second] as number,
      'POST',
      '/api/payment-gateway/payment',
      { tokenId },
      visitor.headers,
    );
    expect(checkout.status).toBe(201);
    // The hold ran out: both instances' sweepers (every 5 s) find it.
    await database.db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(payments.tokenId, tokenId));
    const token = async () =>
      (await database.db.select().from(queueTokens).where(eq(queueTokens.id, tokenId)))[0];
    await waitFor(async () => (await token())?.status === 'cancelled', 'the hold to be released');
    // Give the slower sweeper its pass too: it must find nothing left to release.
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect((await token())?.cancelReason).toBe('payment_expired');
    const [session] = await database.db
      .select({ releasedPlaces: sessions.releasedPlaces })
      .from(sessions)
      .where(eq(sessions.id, paid.session.id));
    expect(session?.releasedPlaces).toBe(1);
  });

  it('shares rate limits: one client is counted across both instances', async () => {
    const client = {
      'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    };
    const statuses: number[] = [];
    for (const port of [ports[first], ports[second], ports[first], ports[second]]) {
      const answer = await call(
        port as number,
        'POST',
        '/auth/v1/recover',
        { email: `${randomUUID()}@example.com` },
        client,
      );
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('loses nothing acknowledged when one instance is killed mid-rush; its clients reconnect to the other', async () => {
    const url = `ws://127.0.0.1:${balancer.port}/wss`;
    // Round robin: one visitor on each instance.
    const visitors = [liveClient(url, topics.session(live.session.id))];
    await waitFor(visitors[0]?.ready ?? (() => false), 'the first visitor');
    visitors.push(liveClient(url, topics.session(live.session.id)));
    await waitFor(visitors[1]?.ready ?? (() => false), 'the second visitor');
    try {
      const rush = Array.from({ length: 80 }, (_, n) =>
        takeToken(balancer.port, `Rush ${n}`).catch(() => undefined),
      );
      let settled = 0;
      for (const attempt of rush) void attempt.then(() => settled++);
      await waitFor(() => settled >= 10, 'the rush to start');
      instances[first]?.kill('SIGKILL');
      const answers = await Promise.all(rush);
      const acknowledged = answers
        .filter((answer): answer is Answer => answer?.status === 201)
        .map((answer) => (answer.json.data as { id: string }).id);
      expect(acknowledged.length).toBeGreaterThanOrEqual(10);
      const stored = await database.db
        .select({ id: queueTokens.id })
        .from(queueTokens)
        .where(inArray(queueTokens.id, acknowledged));
      expect(stored.map((row) => row.id).sort()).toEqual([...acknowledged].sort());

      // The visitor whose instance died is connected again, through the balancer, to the other.
      await waitFor(
        () =>
          visitors.every((visitor) => visitor.ready()) && visitors.some((v) => v.connects() > 1),
        'the orphaned visitor to reconnect',
      );
      const before = visitors.map((visitor) => visitor.messages.length);
      expect((await takeToken(balancer.port, 'After')).status).toBe(201);
      await waitFor(
        () => visitors.every((visitor, i) => visitor.messages.length > (before[i] ?? 0)),
        'both visitors to hear of the next token',
      );
    } finally {
      await Promise.all(visitors.map((visitor) => visitor.close()));
    }
  });
});
