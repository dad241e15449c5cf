/**
 * How fast the notification outbox drains a backlog: N due messages written, then the
 * product's outbox (apps/server/src/modules/notifications/outbox.ts, `runOnce`: what every
 * pass does) sending them through the product's SMTP mailer to a real SMTP server on
 * loopback (bench/smtp-sink.ts, its own process). The floor, in the same run, is the same
 * mailer driven directly with the same number of sends at once and no database. The sides
 * are interleaved round by round; medians are reported.
 *
 *   npm run bench:outbox                       PGlite only
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:outbox
 *
 * Options: BENCH_OUTBOX_MESSAGES (default 5000), BENCH_OUTBOX_ROUNDS (per side, default 3),
 * BENCH_OUTBOX_CONCURRENCY (default 32, the outbox's own default), BENCH_OUTBOX_SMTP_QUERY
 * (nodemailer options in SMTP_URL's query, as an operator would set them: e.g. `pool=false`
 * for a new connection per message instead of the outbox's pool of 8).
 *
 * The backlog is a busy morning: each visitor has three messages due at once (token issued,
 * turn approaching, called), which the outbox must send in that order.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { smtpMailer } from '../apps/server/src/auth/mailer.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { renderTokenMessage } from '../apps/server/src/modules/notifications/notification-templates.ts';
import {
  enqueue,
  type OutgoingMessage,
} from '../apps/server/src/modules/notifications/notifications.repository.ts';
import {
  createOutbox,
  type OutboxOptions,
} from '../apps/server/src/modules/notifications/outbox.ts';
import { adminStatement } from './pg-admin.ts';

const total = Number(process.env.BENCH_OUTBOX_MESSAGES ?? 5000);
const rounds = Number(process.env.BENCH_OUTBOX_ROUNDS ?? 3);
const concurrency = Number(process.env.BENCH_OUTBOX_CONCURRENCY ?? 32);
const serverUrl = process.env.BENCH_DATABASE_URL;
const smtpQuery = process.env.BENCH_OUTBOX_SMTP_QUERY;
const silent = pino({ level: 'silent' }) as OutboxOptions['log'];

function backlog(): OutgoingMessage[] {
  const visitors = Math.ceil(total / 3);
  const kinds = ['token_issued', 'turn_approaching', 'called'] as const;
  return Array.from({ length: total }, (_, i) => {
    const visitor = i % visitors;
    const kind = kinds[Math.floor(i / visitors)] ?? 'called';
    const message = renderTokenMessage(kind, {
      companyName: 'Riverside Clinic',
      queueName: 'General practice',
      displayNumber: `A-${visitor}`,
      counter: 'Room 2',
      statusUrl: `https://upnext.example/admin/my-sessions?token=${visitor}`,
      position: 3,
      estimatedWaitMinutes: 12,
    });
    return {
      channel: 'email',
      recipient: `visitor${visitor}@example.test`,
      template: kind,
      subject: message.subject,
      text: message.text,
      html: message.html,
    };
  });
}

async function startSink(): Promise<{
  child: ChildProcess;
  port: number;
  count(): Promise<number>;
}> {
  const child = fork(join(import.meta.dirname, 'smtp-sink.ts'), { stdio: 'inherit' });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`SMTP sink exited with ${code}`)));
  });
  const count = () =>
    new Promise<number>((resolve) => {
      child.once('message', (message) => resolve((message as { count: number }).count));
      child.send('count');
    });
  return { child, port, count };
}

function admin(statement: string) {
  if (!serverUrl) throw new Error('BENCH_DATABASE_URL is not set');
  return adminStatement(serverUrl, statement);
}

/** A fresh, migrated database for one round, as the server opens it (its default pool). */
async function freshDatabase(driver: 'postgres' | 'pglite') {
  if (driver === 'pglite') {
    const dir = await mkdtemp(join(tmpdir(), 'upnext-bench-outbox-'));
    const database = await openDatabase({ driver: 'pglite', dataDir: dir });
    await database.migrate();
    return {
      database,
      drop: async () => {
        await database.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `upnext_bench_outbox_${Date.now().toString(36)}`;
  await admin(`create database ${name}`);
  const url = new URL(serverUrl as string);
  url.pathname = `/${name}`;
  const database = await openDatabase({ driver: 'postgres', url: url.toString() });
  await database.migrate();
  return {
    database,
    drop: async () => {
      await database.close();
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

type Run = { perSecond: number; cpuMsPerMessage: number; load: number };

/** Times `work`, which must deliver `total` messages to the sink. */
async function timed(sink: Awaited<ReturnType<typeof startSink>>, work: () => Promise<unknown>) {
  const before = await sink.count();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const delivered = (await sink.count()) - before;
  if (delivered !== total) throw new Error(`the sink received ${delivered}, not ${total}`);
  return {
    perSecond: Math.round(total / seconds),
    cpuMsPerMessage: Math.round(((used.user + used.system) / 1000 / total) * 100) / 100,
    load: Math.round((loadavg()[0] ?? 0) * 10) / 10,
  };
}

const messages = backlog();
const sink = await startSink();
const smtpUrl = `smtp://127.0.0.1:${sink.port}${smtpQuery ? `?${smtpQuery}` : ''}`;
// Pooled as the product's outbox has it (server.ts), unless the query says otherwise.
const mailer = smtpMailer(smtpUrl, 'UpNext <bench@upnext.test>', { pooled: true });

/** The sender alone: `concurrency` workers taking the next message until none is left. */
async function floor(): Promise<Run> {
  return timed(sink, async () => {
    let next = 0;
    const worker = async () => {
      while (next < messages.length) {
        const message = messages[next++] as OutgoingMessage;
        await mailer.send({
          to: message.recipient,
          subject: message.subject ?? '',
          text: message.text,
          html: message.html ?? message.text,
        });
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  });
}

async function product(driver: 'postgres' | 'pglite'): Promise<Run> {
  const { database, drop } = await freshDatabase(driver);
  try {
    for (let i = 0; i < messages.length; i += 1000) {
      await enqueue(database.db, messages.slice(i, i + 1000), systemClock());
    }
    const outbox = createOutbox({
      database,
      clock: systemClock,
      mailer,
      log: silent,
      concurrency,
    });
    return await timed(sink, async () => {
      const sent = await outbox.runOnce();
      if (sent !== total) throw new Error(`the outbox sent ${sent}, not ${total}`);
    });
  } finally {
    await drop();
  }
}

const sides: Array<{ name: string; run: () => Promise<Run> }> = [
  { name: 'floor: the SMTP mailer alone, no database', run: floor },
  ...(serverUrl ? [{ name: 'outbox on PostgreSQL', run: () => product('postgres') }] : []),
  { name: 'outbox on PGlite (embedded)', run: () => product('pglite') },
];
const runs = new Map<string, Run[]>(sides.map((side) => [side.name, []]));
try {
  await floor(); // warm-up (connections, JIT), discarded
  for (let round = 0; round < rounds; round += 1) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const run = await side.run();
      runs.get(side.name)?.push(run);
      console.error(`round ${round + 1}: ${side.name}: ${run.perSecond}/s (load ${run.load})`);
    }
  }
} finally {
  sink.child.disconnect();
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const value =
    sorted.length % 2
      ? (sorted[middle] ?? 0)
      : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return Math.round(value * 100) / 100;
};
const floorRate = median((runs.get(sides[0]?.name ?? '') ?? []).map((run) => run.perSecond));
console.log(
  `\nOutbox drain: ${total} due messages (${Math.ceil(total / 3)} visitors, 3 each), ${concurrency} sends at once, SMTP ${smtpQuery ?? 'pooled, 8 connections (the outbox default)'}, ${rounds} rounds per side, ${cpus().length} cores\n`,
);
console.log(
  '| Side | Messages/s (median) | Runs | Bench process CPU per message | Load average | vs floor |',
);
console.log('| --- | ---: | --- | ---: | --- | ---: |');
for (const side of sides) {
  const list = runs.get(side.name) ?? [];
  const rate = median(list.map((run) => run.perSecond));
  console.log(
    `| ${side.name} | ${rate} | ${list.map((run) => run.perSecond).join(', ')} | ${median(list.map((run) => run.cpuMsPerMessage))} ms | ${list.map((run) => run.load).join(', ')} | ${Math.round((rate / floorRate) * 100)} % |`,
  );
}
