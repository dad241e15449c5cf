import { randomBytes, randomUUID } from 'node:crypto';
import { Client, type IFrame, type IMessage } from '@stomp/stompjs';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { WebSocket } from 'ws';
import type { Db } from '../db/client.ts';
import { companies, companyUsers, userProfiles } from '../db/schema/companies.ts';
import { queues } from '../db/schema/queues.ts';
import { sessions } from '../db/schema/sessions.ts';

/** Test helpers for the STOMP endpoint: a listening app, stompjs clients over `ws`, fixtures. */

export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return `ws://127.0.0.1:${address.port}/wss`;
}

export function wssUrl(base: string, token?: string): string {
  return token ? `${base}?token=${encodeURIComponent(token)}` : base;
}

/** Values that arrive over time, taken in order by awaiting `next()`. */
export class Inbox<T> {
  private readonly items: T[] = [];
  private readonly waiters: Array<(item: T) => void> = [];
  push(item: T): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(item);
    else this.items.push(item);
  }
  next(): Promise<T> {
    const item = this.items.shift();
    return item !== undefined
      ? Promise.resolve(item)
      : new Promise((resolve) => this.waiters.push(resolve));
  }
  get size(): number {
    return this.items.length;
  }
}

export type TestStomp = {
  client: Client;
  errors: Inbox<IFrame>;
  messages: Inbox<IMessage>;
  /** Subscribes and waits for the server's RECEIPT, so the subscription is in place. */
  subscribe(destination: string): Promise<void>;
  /** Resolves when the WebSocket has closed. */
  closed: Promise<void>;
  close(): Promise<void>;
};

/** A stompjs client (as the web app uses it) connected over `ws`; rejects if CONNECT fails. */
export async function connectStomp(
  url: string,
  options: { heartbeatIncoming?: number; heartbeatOutgoing?: number } = {},
): Promise<TestStomp> {
  const errors = new Inbox<IFrame>();
  const messages = new Inbox<IMessage>();
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const client = new Client({
    webSocketFactory: () => new WebSocket(url, ['v12.stomp', 'v11.stomp', 'v10.stomp']),
    reconnectDelay: 0,
    heartbeatIncoming: options.heartbeatIncoming ?? 0,
    heartbeatOutgoing: options.heartbeatOutgoing ?? 0,
  });
  const connected = new Promise<void>((resolve, reject) => {
    client.onConnect = () => resolve();
    client.onStompError = (frame) => {
      reject(new Error(frame.headers.message));
      errors.push(frame);
    };
    client.onWebSocketClose = (event: { code?: number }) => {
      reject(new Error(`closed before CONNECTED (${event.code})`));
      markClosed();
    };
  });
  client.activate();
  await connected;
  let receipts = 0;
  return {
    client,
    errors,
    messages,
    closed,
    subscribe(destination) {
      const receipt = `r-${++receipts}`;
      const done = new Promise<void>((resolve) => client.watchForReceipt(receipt, () => resolve()));
      client.subscribe(destination, (message) => messages.push(message), { receipt });
      return done;
    },
    close: () => client.deactivate(),
  };
}

/** Whether `token`'s holder (anonymous without one) may SUBSCRIBE to `destination`. */
export async function subscribeOutcome(
  base: string,
  token: string | undefined,
  destination: string,
): Promise<'subscribed' | 'refused'> {
  const stomp = await connectStomp(wssUrl(base, token));
  try {
    return await Promise.race([
      stomp.subscribe(destination).then(() => 'subscribed' as const),
      stomp.errors.next().then(() => 'refused' as const),
    ]);
  } finally {
    await stomp.close();
  }
}

/** A raw WebSocket speaking STOMP by hand, for frames stompjs would never send. */
export async function rawSocket(
  url: string,
  headers: Record<string, string> = {},
): Promise<{
  ws: WebSocket;
  frames: Inbox<string>;
  closed: Promise<number>;
}> {
  const ws = new WebSocket(url, ['v12.stomp'], { headers });
  const frames = new Inbox<string>();
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('message', (data) => frames.push(String(data)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, frames, closed };
}

/** The status of a refused upgrade (e.g. 401), or "open" when the socket opened. */
export function upgradeStatus(
  url: string,
  headers: Record<string, string> = {},
): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, ['v12.stomp'], { headers });
    ws.once('open', () => {
      ws.close();
      resolve('open');
    });
    ws.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    ws.once('error', () => {});
  });
}

export type Fixture = { companyId: string; queueId: string; sessionId: string };

/** A company with a queue of the given visibility and one session today. */
export async function createSessionFixture(
  db: Db,
  options: {
    visibility?: 'public' | 'unlisted' | 'private';
    queueStatus?: 'active' | 'archived';
  } = {},
): Promise<Fixture> {
  const suffix = randomBytes(4).toString('hex');
  const [company] = await db
    .insert(companies)
    .values({
      name: `Clinic ${suffix}`,
      slug: `clinic-${suffix}`,
      timezone: 'UTC',
      plan: 'business',
    })
    .returning();
  if (!company) throw new Error('company not created');
  const [queue] = await db
    .insert(queues)
    .values({
      companyId: company.id,
      name: 'Front desk',
      joinCode: randomBytes(3).toString('hex').toUpperCase(),
      visibility: options.visibility ?? 'public',
      status: options.queueStatus ?? 'active',
    })
    .returning();
  if (!queue) throw new Error('queue not created');
  const startsAt = new Date();
  const [session] = await db
    .insert(sessions)
    .values({
      queueId: queue.id,
      date: startsAt.toISOString().slice(0, 10),
      startTime: '00:00',
      endTime: '23:59',
      timezone: 'UTC',
      startsAt,
      endsAt: new Date(startsAt.getTime() + 3_600_000),
      capacity: 100,
    })
    .returning();
  if (!session) throw new Error('session not created');
  return { companyId: company.id, queueId: queue.id, sessionId: session.id };
}

export async function addMember(db: Db, companyId: string, userId: string, email: string) {
  await db
    .insert(companyUsers)
    .values({ companyId, userId, email, role: 'staff', status: 'active' });
}

/** Gives the user a profile with a fresh subscribeId and returns it. */
export async function giveProfile(db: Db, userId: string): Promise<string> {
  const subscribeId = randomUUID().replaceAll('-', '');
  // A profile made already (taking a token makes one) keeps its subscribeId.
  await db
    .insert(userProfiles)
    .values({ userId, subscribeId })
    .onConflictDoNothing({ target: userProfiles.userId });
  const [row] = await db.select().from(userProfiles).where(eq(userProfiles.userId, userId));
  return row?.subscribeId ?? subscribeId;
}
