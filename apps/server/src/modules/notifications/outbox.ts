import type { FastifyBaseLogger } from 'fastify';
import type { Mailer } from '../../auth/mailer.ts';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { createPeriodicTask } from '../../lib/periodic.ts';
import {
  claimDue,
  deleteSentBefore,
  listenForEnqueued,
  markFailed,
  markSent,
  type NotificationRow,
} from './notifications.repository.ts';

/** Sends one SMS; absent when no SMS path is configured (SMS rows then fail clearly). */
type SmsSend = (to: string, body: string) => Promise<void>;

export type OutboxOptions = {
  database: Pick<Database, 'db' | 'listen'>;
  clock: Clock;
  mailer: Mailer;
  sms?: SmsSend | undefined;
  log: FastifyBaseLogger;
  /** Sends under way at once on this instance. */
  concurrency?: number;
  maxAttempts?: number;
};

/**
 * How long a claim is held. Rows are claimed only when a sender is free, so a claim lasts one
 * send and the wait for its batch to be recorded (other sends finishing), and every send
 * gives up well before this: SMTP after 20 s (auth/mailer.ts), Twilio after 10 s
 * (auth/sms.ts). A lease that ran out means its worker died, not that it is slow.
 */
const LEASE_MS = 60_000;
const BASE_DELAY_MS = 30_000;
const MAX_DELAY_MS = 3_600_000;
const POLL_INTERVAL_MS = 5000;
/** How long a sent message is kept (for a complaint about one), then deleted. */
export const SENT_RETENTION_DAYS = 30;
const PURGE_INTERVAL_MS = 3_600_000;
/** Deleted per statement, so a purge never holds many rows' locks at once. */
const PURGE_BATCH = 1000;

/** 30 s, 1 min, 2 min, ... capped at an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1));
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Delivers the notification outbox. Every instance runs one; rows are claimed with SKIP
 * LOCKED and a lease, and only the claim's holder may record the outcome, so nothing is sent
 * twice by two instances and nothing is lost when one dies. It sends while anything is due,
 * `concurrency` at a time, and is woken by every commit that writes messages (on any
 * instance); otherwise it looks every 5 s (retries falling due, leases running out). A failed
 * delivery is retried with exponential backoff, then marked failed after `maxAttempts`; until
 * then it holds back its recipient's later messages (order matters more than speed: "it is
 * your turn" must not arrive before "almost your turn"), at most about an hour with 8 attempts.
 */
export function createOutbox(options: OutboxOptions) {
  const { db } = options.database;
  const concurrency = options.concurrency ?? 32;
  const maxAttempts = options.maxAttempts ?? 8;
  let stopping = false;

  async function deliver(row: NotificationRow) {
    if (row.channel === 'email') {
      await options.mailer.send({
        to: row.recipient,
        subject: row.subject,
        text: row.text,
        html: row.html ?? row.text,
        ...(row.attachments.length > 0 ? { attachments: row.attachments } : {}),
      });
      return;
    }
    if (!options.sms) throw new Error('no SMS provider is configured');
    await options.sms(row.recipient, row.text);
  }

  /** Sends one claimed row, recording a failure at once; never rejects. True: it went out. */
  async function send(row: NotificationRow): Promise<boolean> {
    try {
      await deliver(row);
      return true;
    } catch (error) {
      const failure = reason(error);
      // The recipient is personal data: logs name the row id, not the address.
      const about = { notificationId: row.id, attempts: row.attempts };
      options.log.warn({ ...about, err: failure }, 'notification delivery failed');
      const retryAt =
        row.attempts < maxAttempts
          ? new Date(options.clock().getTime() + retryDelayMs(row.attempts))
          : null;
      try {
        await markFailed(db, row, failure.slice(0, 500), retryAt);
      } catch (error) {
        // The row stays claimed; once the lease ends it is tried again.
        options.log.error({ ...about, err: error }, 'could not record a notification failure');
      }
      return false;
    }
  }

  async function recordSent(rows: NotificationRow[]) {
    if (rows.length === 0) return;
    try {
      const marked = new Set(await markSent(db, rows, options.clock()));
      const lost = rows.filter((row) => !marked.has(row.id)).map((row) => row.id);
      if (lost.length > 0) {
        options.log.warn(
          { notificationIds: lost },
          'notifications sent after their claims were taken over',
        );
      }
    } catch (error) {
      // They stay claimed, and are sent again once their lease ends.
      const notificationIds = rows.map((row) => row.id);
      options.log.error({ notificationIds, err: error }, 'could not record sent notifications');
    }
  }

  /** Sends until nothing is due, at most `concurrency` at once; returns how many went out. */
  async function drain(): Promise<number> {
    const inFlight = new Set<Promise<void>>();
    // Recorded together before the next claim, one statement for many (and the claim sees
    // them: a recipient's next message may follow).
    let delivered: NotificationRow[] = [];
    let sent = 0;
    const flush = () => {
      const batch = delivered;
      delivered = [];
      sent += batch.length;
      return recordSent(batch);
    };
    try {
      while (!stopping) {
        await flush();
        const free = concurrency - inFlight.size;
        const claimed = await claimDue(db, options.clock(), free, LEASE_MS);
        for (const row of claimed) {
          const sending: Promise<void> = send(row).then((ok) => {
            if (ok) delivered.push(row);
            inFlight.delete(sending);
          });
          inFlight.add(sending);
        }
        if (inFlight.size === 0) break;
        if (claimed.length < free) {
          // Less was due than there was room for: a send finishing may let its recipient's
          // next message go, so look again after each one.
          await Promise.race(inFlight);
        } else {
          // Claim (and record) in batches of at least half the senders, not per message.
          while (inFlight.size > concurrency / 2) await Promise.race(inFlight);
        }
      }
    } finally {
      await Promise.all(inFlight);
      await flush();
    }
    return sent;
  }

  /** Deletes what was sent more than SENT_RETENTION_DAYS ago; returns how many. */
  async function purgeSent(): Promise<number> {
    const before = new Date(options.clock().getTime() - SENT_RETENTION_DAYS * 86_400_000);
    let purged = 0;
    for (;;) {
      const deleted = await deleteSentBefore(db, before, PURGE_BATCH);
      purged += deleted;
      if (deleted < PURGE_BATCH || stopping) return purged;
    }
  }

  const periodic = createPeriodicTask(drain, options.log, 'notification outbox pass');
  const purging = createPeriodicTask(purgeSent, options.log, 'notification purge');
  let unlisten: (() => Promise<void>) | undefined;
  return {
    /** Sends everything due now (what each pass does); for tests and benchmarks. */
    runOnce: drain,
    /** Deletes the messages sent longer ago than they are kept (each start, then hourly). */
    purgeOnce: purgeSent,
    async start(intervalMs = POLL_INTERVAL_MS) {
      periodic.start(intervalMs);
      purging.start(PURGE_INTERVAL_MS);
      purging.wake();
      try {
        unlisten = await listenForEnqueued(options.database, periodic.wake);
      } catch (error) {
        options.log.warn({ err: error }, 'outbox: not woken by new messages, polling only');
        periodic.wake();
      }
    },
    /** Stops claiming and waits for the sends under way; the rest stays queued. */
    async stop() {
      stopping = true;
      await unlisten?.();
      await Promise.all([periodic.stop(), purging.stop()]);
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
