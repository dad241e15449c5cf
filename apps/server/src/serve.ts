import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import type { Database } from './db/client.ts';
import { copyPgdataTemplate } from './db/pgdata-template.ts';
import { lockDataDir } from './lib/data-dir-lock.ts';
import { createLifecycle } from './lib/lifecycle.ts';
import { loggerOptions } from './lib/logger.ts';
import type { Outbox } from './modules/notifications/outbox.ts';

/** How often each instance looks for bookings to remind (a day ahead: seconds do not matter). */
const REMINDER_INTERVAL_MS = 5000;

function readConfig() {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

const config = readConfig();
const startedAt = performance.now();
const log = pino({
  ...loggerOptions(config),
  // Readable logs for a developer at a terminal; JSON lines everywhere else.
  ...(config.env === 'development' && process.stdout.isTTY
    ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } }
    : {}),
});

// Signal handlers come first: a stop requested while starting, or the instant the URL is
// printed (an orchestrator may act on that line at once), must still shut down cleanly.
const lifecycle = createLifecycle();
let app: FastifyInstance | undefined;
let database: Database | undefined;
let releaseDataDir: (() => Promise<void>) | undefined;
let outbox: Outbox | undefined;
let reminders: ReturnType<typeof import('./lib/periodic.ts').createPeriodicTask> | undefined;
let missedCalls:
  | ReturnType<typeof import('./modules/meetings/meetings.sweeper.ts').createMissedCallSweeper>
  | undefined;
let paymentSweep:
  | ReturnType<typeof import('./modules/payments/payments.sweeper.ts').createPaymentSweeper>
  | undefined;
let stopping = false;
async function shutdown(reason: string, exitCode: number) {
  if (stopping) {
    log.warn({ reason }, 'second stop request: exiting now');
    process.exit(1);
  }
  stopping = true;
  lifecycle.ready = false;
  log.info({ reason }, 'shutting down: draining requests');
  const forceExit = setTimeout(() => {
    log.error('shutdown took too long: exiting');
    process.exit(1);
  }, config.shutdownTimeoutMs);
  forceExit.unref();
  try {
    await missedCalls?.stop(); // before the realtime bus it announces on closes
    await paymentSweep?.stop();
    await app?.close(); // stops accepting, waits for in-flight requests
    await reminders?.stop();
    await outbox?.stop(); // lets the deliveries under way finish; the rest stays queued
    await database?.close();
    await releaseDataDir?.();
    log.info('stopped');
  } catch (error) {
    log.error({ err: error }, 'error while shutting down');
    exitCode = 1;
  }
  process.exit(exitCode);
}

// A second signal while draining exits at once (see `stopping`).
process.on('SIGTERM', () => void shutdown('SIGTERM', 0));
process.on('SIGINT', () => void shutdown('SIGINT', 0));
process.on('unhandledRejection', (error) => {
  log.fatal({ err: error }, 'unhandled promise rejection');
  void shutdown('unhandledRejection', 1);
});

await mkdir(config.dataDir, { recursive: true });
releaseDataDir = config.databaseUrl ? async () => {} : await lockDataDir(config.dataDir);
const pgdata = join(config.dataDir, 'pgdata');
// What opening the database takes on other threads starts before the modules load, which keeps
// this one busy for most of a second: first a first start's copy of the template, then
// (beginOpenDatabase) compiling PGlite's WASM.
const templateCopied = config.databaseUrl ? undefined : copyPgdataTemplate(pgdata);
const { beginOpenDatabase } = await import('./db/client.ts');
const openingDatabase = beginOpenDatabase(
  config.databaseUrl
    ? { driver: 'postgres', url: config.databaseUrl }
    : { driver: 'pglite', dataDir: pgdata, templateCopied },
);
const [
  { buildApp },
  { loadAuthKeys },
  { mailerFor },
  { hashPassword },
  { parsePhone },
  { createSmsSender },
  { systemClock },
  { createPeriodicTask },
  { DEMO_PASSWORD, seedDemoData },
  { createMissedCallSweeper },
  { createOutbox },
  { createPaymentSweeper },
  { enqueueDueReminders },
] = await Promise.all([
  import('./app.ts'),
  import('./auth/keys.ts'),
  import('./auth/mailer.ts'),
  import('./auth/passwords.ts'),
  import('./auth/phone.ts'),
  import('./auth/sms.ts'),
  import('./lib/clock.ts'),
  import('./lib/periodic.ts'),
  import('./modules/demo/demo.seed.ts'),
  import('./modules/meetings/meetings.sweeper.ts'),
  import('./modules/notifications/outbox.ts'),
  import('./modules/payments/payments.sweeper.ts'),
  import('./modules/tokens/tokens.notifications.ts'),
]);
database = await openingDatabase();
log.info({ driver: database.driver }, 'database opened');
await database.migrate();
// The demo sign-ins (README) are hashed only when the demo is actually seeded.
const demoAccounts = config.seedDemoAccounts
  ? { accounts: { passwordHash: () => hashPassword(DEMO_PASSWORD) } }
  : {};
if (config.seedDemoData && (await seedDemoData(database.db, systemClock, demoAccounts))) {
  log.info('demo data seeded');
}

const authKeys = await loadAuthKeys(config.auth, config.dataDir);
app = await buildApp({ config, database, lifecycle, logger: log, authKeys });
await app.listen({ host: config.host, port: config.port });
lifecycle.ready = true;

const db = database.db;
const smsSender = createSmsSender(config, db);
outbox = createOutbox({
  database,
  clock: systemClock,
  mailer: mailerFor(config.auth, db, { pooled: true }),
  // Visitors type their number as they like; the SMS path wants E.164 digits.
  sms: smsSender ? (to, body) => smsSender.send(parsePhone(to), body) : undefined,
  log,
});
await outbox.start();
const reminderDeps = { publicUrl: config.publicUrl, smsEnabled: smsSender !== null };
reminders = createPeriodicTask(
  () => enqueueDueReminders(db, reminderDeps, systemClock()),
  log,
  'booking reminders',
);
reminders.start(REMINDER_INTERVAL_MS);
missedCalls = createMissedCallSweeper({
  db,
  clock: systemClock,
  publisher: app.realtime.publisher,
  log,
});
missedCalls.start();
paymentSweep = createPaymentSweeper({
  db,
  clock: systemClock,
  publisher: app.realtime.publisher,
  publicUrl: config.publicUrl,
  smsEnabled: smsSender !== null,
  payments: app.payments,
  log,
});
paymentSweep.start();
if (!app.payments.provider) {
  log.warn(
    'payments: no provider in production (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET); paid queues answer payments_unavailable',
  );
} else if (app.payments.sandbox) {
  log.info('payments: the built-in sandbox checkout (test cards only; never in production)');
}

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
const conveniences = { devMailbox: config.devMailbox, demoSignIns: config.seedDemoAccounts };
if (!config.localOnly && (config.devMailbox || config.seedDemoAccounts)) {
  log.warn(
    conveniences,
    'developer conveniences are on for a server reachable beyond this machine',
  );
} else if (!config.localOnly && config.env !== 'production') {
  log.info(
    conveniences,
    'reachable beyond this machine: developer mailbox and demo sign-ins off (DEV_MAILBOX, SEED_DEMO_ACCOUNTS)',
  );
}
log.info({ ms: Math.round(performance.now() - startedAt) }, 'ready');
console.log(`\n  UpNext is ready at ${config.publicUrl.replace(`:${config.port}`, `:${port}`)}\n`);
