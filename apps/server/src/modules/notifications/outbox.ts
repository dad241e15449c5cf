import type { FastifyBaseLogger } from 'fastify';
import type { Mailer } from '../../auth/mailer.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { createPeriodicTask } from '../../lib/periodic.ts';
import {
  claimDue,
  markFailed,
  markSent,
  type NotificationRow,
} from './notifications.repository.ts';

/** Sends one SMS; absent when no SMS path is configured (SMS rows then fail clearly). */
type SmsSend = (to: string, body: string) => Promise<void>;

export type OutboxOptions = {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  sms?: SmsSend | undefined;
  log: FastifyBaseLogger;
  /** Extra work per tick (e.g. enqueueing reminders that fell due). */
  beforeTick?: () => Promise<void>;
  batchSize?: number;
  maxAttempts?: number;
};

const LEASE_MS = 60_000;
const BASE_DELAY_MS = 30_000;
const MAX_DELAY_MS = 3_600_000;

/** 30 s, 1 min, 2 min, ... capped at an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1));
}

/**
 * Delivers the notification outbox. Every instance runs one; rows are claimed with SKIP
 * LOCKED and a lease, so nothing is sent twice by two instances and nothing is lost when one
 * dies. A failed delivery is retried with exponential backoff, then marked failed.
 */
export function createOutbox(options: OutboxOptions) {
  const batchSize = options.batchSize ?? 20;
  const maxAttempts = options.maxAttempts ?? 8;

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

  /** One pass: returns how many messages went out. */
  async function runOnce(): Promise<number> {
    await options.beforeTick?.();
    const claimed = await claimDue(options.db, options.clock(), batchSize, LEASE_MS);
    let sent = 0;
    for (const row of claimed) {
      try {
        await deliver(row);
        await markSent(options.db, row.id, options.clock());
        sent += 1;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const retryAt =
          row.attempts < maxAttempts
            ? new Date(options.clock().getTime() + retryDelayMs(row.attempts))
            : null;
        // The recipient is personal data: log the row id, not the address.
        options.log.warn(
          { notificationId: row.id, attempts: row.attempts, err: message },
          'notification delivery failed',
        );
        await markFailed(options.db, row.id, message.slice(0, 500), retryAt);
      }
    }
    return sent;
  }

  const periodic = createPeriodicTask(runOnce, options.log, 'notification outbox pass');
  return {
    runOnce,
    start: (intervalMs = 5000) => periodic.start(intervalMs),
    /** Stops the timer and waits for a pass under way. */
    stop: periodic.stop,
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
