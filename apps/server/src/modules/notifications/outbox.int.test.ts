import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mailer, MailMessage } from '../../auth/mailer.ts';
import { notifications } from '../../db/schema/notifications.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { enqueue, type OutgoingMessage } from './notifications.repository.ts';
import { createOutbox, retryDelayMs, SENT_RETENTION_DAYS } from './outbox.ts';

const silent = pino({ level: 'silent' }) as FastifyBaseLogger;

const mail = (to: string, text: string): OutgoingMessage => ({
  channel: 'email',
  recipient: to,
  template: 'test',
  subject: text,
  text,
});

type Behaviour = {
  delayMs?: (message: MailMessage) => number;
  fails?: (message: MailMessage) => boolean;
};

/**
 * A mailer recording, in `events` (shared between instances), when each send starts and
 * ends, and in `delivered` what went out; it counts how many of its sends overlapped.
 */
function recordingMailer(
  shared: { events: string[]; delivered: MailMessage[] },
  behaviour: Behaviour = {},
): Mailer & { maxInFlight: number } {
  let inFlight = 0;
  const mailer = {
    kind: 'smtp' as const,
    maxInFlight: 0,
    async send(message: MailMessage) {
      inFlight += 1;
      mailer.maxInFlight = Math.max(mailer.maxInFlight, inFlight);
      shared.events.push(`start ${message.text}`);
      try {
        await sleep(behaviour.delayMs?.(message) ?? 1 + Math.random() * 3);
        if (behaviour.fails?.(message)) throw new Error('421 try again later');
        shared.delivered.push(message);
      } finally {
        shared.events.push(`end ${message.text}`);
        inFlight -= 1;
      }
    },
  };
  return mailer;
}

const textsTo = (delivered: MailMessage[], to: string) =>
  delivered.filter((message) => message.to === to).map((message) => message.text);

describe.each(testDrivers)('the outbox under load (%s)', (driver) => {
  let database: TestDatabase;
  let shared: { events: string[]; delivered: MailMessage[] };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await database.db.delete(notifications);
    shared = { events: [], delivered: [] };
  });

  const outbox = (mailer: Mailer, options: { concurrency: number; clock?: () => Date }) =>
    createOutbox({ database, clock: () => new Date(), mailer, log: silent, ...options });
  const rowOf = async (text: string) =>
    (await database.db.select().from(notifications).where(eq(notifications.text, text)))[0];

  it('delivers 500 messages from two instances exactly once, in order per recipient, a bounded number at a time', async () => {
    const recipients = Array.from({ length: 100 }, (_, i) => `r${i}@example.test`);
    const messages = Array.from({ length: 500 }, (_, i) =>
      mail(recipients[i % 100] as string, `message ${i}`),
    );
    await enqueue(database.db, messages, new Date());
    const one = recordingMailer(shared);
    const two = recordingMailer(shared);
    const sent = await Promise.all([
      outbox(one, { concurrency: 8 }).runOnce(),
      outbox(two, { concurrency: 8 }).runOnce(),
    ]);

    expect(sent[0] + sent[1]).toBe(500);
    expect(sent[0]).toBeGreaterThan(0);
    expect(sent[1]).toBeGreaterThan(0);
    const texts = shared.delivered.map((message) => message.text);
    expect(new Set(texts).size).toBe(500);
    expect(texts).toHaveLength(500);
    for (const [i, recipient] of recipients.entries()) {
      expect(textsTo(shared.delivered, recipient)).toEqual(
        [0, 1, 2, 3, 4].map((round) => `message ${round * 100 + i}`),
      );
    }
    expect([one.maxInFlight, two.maxInFlight]).toEqual([8, 8]);
    const rows = await database.db
      .select({ status: notifications.status, attempts: notifications.attempts })
      .from(notifications);
    expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
  });

  it("holds a recipient's later messages until a slow first one is sent, and not anyone else's", async () => {
    const slow = 'slow@example.test';
    await enqueue(
      database.db,
      [
        mail(slow, 'slow 1'),
        mail(slow, 'slow 2'),
        ...Array.from({ length: 20 }, (_, i) => mail(`other${i}@example.test`, `other ${i}`)),
        mail(slow, 'slow 3'),
      ],
      new Date(),
    );
    const behaviour = { delayMs: (message: MailMessage) => (message.text === 'slow 1' ? 1000 : 2) };
    await Promise.all([
      outbox(recordingMailer(shared, behaviour), { concurrency: 4 }).runOnce(),
      outbox(recordingMailer(shared, behaviour), { concurrency: 4 }).runOnce(),
    ]);

    expect(textsTo(shared.delivered, slow)).toEqual(['slow 1', 'slow 2', 'slow 3']);
    const at = (event: string) => shared.events.indexOf(event);
    expect(at('start slow 2')).toBeGreaterThan(at('end slow 1'));
    expect(at('start slow 3')).toBeGreaterThan(at('end slow 2'));
    expect(shared.delivered.slice(0, 20).every((m) => m.text.startsWith('other'))).toBe(true);
  });

  it('retries a failing send with backoff without holding up other recipients, and lets a recipient go on after a message fails for good', async () => {
    const t0 = new Date();
    let now = t0;
    await enqueue(
      database.db,
      [
        mail('flaky@example.test', 'flaky 1'),
        mail('flaky@example.test', 'flaky 2'),
        mail('doomed@example.test', 'doomed 1'),
        mail('doomed@example.test', 'doomed 2'),
        ...Array.from({ length: 5 }, (_, i) => mail(`fine${i}@example.test`, `fine ${i}`)),
      ],
      t0,
    );
    let flakyFailures = 2;
    const mailer = recordingMailer(shared, {
      fails: (message) =>
        message.text === 'doomed 1' || (message.text === 'flaky 1' && flakyFailures-- > 0),
    });
    const pass = () =>
      createOutbox({ database, clock: () => now, mailer, log: silent, maxAttempts: 3 }).runOnce();

    expect(await pass()).toBe(5);
    expect(await rowOf('flaky 1')).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: '421 try again later',
      nextAttemptAt: new Date(t0.getTime() + retryDelayMs(1)),
    });
    expect(await rowOf('flaky 2')).toMatchObject({ status: 'pending', attempts: 0 });

    now = new Date(t0.getTime() + 1000); // backing off: nothing is due
    expect(await pass()).toBe(0);
    expect((await rowOf('flaky 1'))?.attempts).toBe(1);

    now = new Date(t0.getTime() + retryDelayMs(1));
    expect(await pass()).toBe(0); // the second attempts fail too
    expect(await rowOf('doomed 1')).toMatchObject({
      status: 'pending',
      attempts: 2,
      nextAttemptAt: new Date(now.getTime() + retryDelayMs(2)),
    });

    now = new Date(now.getTime() + retryDelayMs(2));
    expect(await pass()).toBe(3);
    expect(textsTo(shared.delivered, 'flaky@example.test')).toEqual(['flaky 1', 'flaky 2']);
    expect(await rowOf('flaky 1')).toMatchObject({ status: 'sent', attempts: 3 });
    expect(await rowOf('doomed 1')).toMatchObject({ status: 'failed', attempts: 3 });
    expect(await rowOf('doomed 2')).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('ignores what a worker whose lease ran out reports after another took its message over', async () => {
    const t0 = new Date();
    await enqueue(database.db, [mail('late@example.test', 'late')], t0);
    let giveUp = () => {};
    const stuck: Mailer = {
      kind: 'smtp',
      send: () =>
        new Promise((_resolve, reject) => {
          giveUp = () => reject(new Error('connection reset'));
        }),
    };
    const first = createOutbox({ database, clock: () => t0, mailer: stuck, log: silent });
    const firstPass = first.runOnce();
    await expect.poll(async () => (await rowOf('late'))?.status).toBe('sending');
    const afterLease = new Date(t0.getTime() + 61_000);
    const second = recordingMailer(shared);
    const pass = () =>
      createOutbox({ database, clock: () => afterLease, mailer: second, log: silent }).runOnce();
    expect(await pass()).toBe(1);
    giveUp();
    expect(await firstPass).toBe(0);
    expect(await rowOf('late')).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    expect(await pass()).toBe(0);
    expect(shared.delivered).toHaveLength(1);
  });

  it('deletes messages sent longer ago than they are kept, and nothing undelivered', async () => {
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    await enqueue(
      database.db,
      ['old 1', 'old 2', 'recent', 'failed', 'pending'].map((text) =>
        mail(`${text.replace(' ', '-')}@example.test`, text),
      ),
      daysAgo(SENT_RETENTION_DAYS + 5),
    );
    const setRow = (text: string, values: Partial<typeof notifications.$inferInsert>) =>
      database.db.update(notifications).set(values).where(eq(notifications.text, text));
    await setRow('old 1', { status: 'sent', sentAt: daysAgo(SENT_RETENTION_DAYS + 1) });
    await setRow('old 2', { status: 'sent', sentAt: daysAgo(SENT_RETENTION_DAYS + 4) });
    await setRow('recent', { status: 'sent', sentAt: daysAgo(SENT_RETENTION_DAYS - 1) });
    await setRow('failed', { status: 'failed', lastError: 'mailbox unavailable' });
    await setRow('pending', { nextAttemptAt: new Date(now.getTime() + 60_000) });

    const purged = await outbox(recordingMailer(shared), { concurrency: 1 }).purgeOnce();

    expect(purged).toBe(2);
    const left = await database.db.select({ text: notifications.text }).from(notifications);
    expect(left.map((row) => row.text).sort()).toEqual(['failed', 'pending', 'recent']);
  });

  it('is woken by a committed write, not its interval', async () => {
    const running = outbox(recordingMailer(shared), { concurrency: 4 });
    await running.start(60_000);
    try {
      await sleep(200); // the pass at start finds nothing
      await database.db.transaction((tx) =>
        enqueue(tx, [mail('woken@example.test', 'woken')], new Date()),
      );
      await expect
        .poll(() => shared.delivered.map((message) => message.text), { timeout: 5000 })
        .toEqual(['woken']);
    } finally {
      await running.stop();
    }
  });

  it.runIf(driver === 'postgres')(
    'listens again when its connection to PostgreSQL is cut',
    async () => {
      const running = outbox(recordingMailer(shared), { concurrency: 4 });
      await running.start(60_000);
      try {
        // node-postgres answers a raw statement with its QueryResult.
        const cut = (await database.db.execute(sql`
          select pg_terminate_backend(pid) as cut from pg_stat_activity
          where datname = current_database() and query ilike 'listen %'`)) as unknown as {
          rows: { cut: boolean }[];
        };
        expect(cut.rows).toEqual([{ cut: true }]);
        await sleep(3000); // it reconnects after 2 s
        await enqueue(database.db, [mail('again@example.test', 'again')], new Date());
        await expect.poll(() => shared.delivered.length, { timeout: 5000 }).toBe(1);
      } finally {
        await running.stop();
      }
    },
  );
});
