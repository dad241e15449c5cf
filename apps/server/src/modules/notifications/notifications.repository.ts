import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { type NotificationAttachment, notifications } from '../../db/schema/notifications.ts';

export type NotificationRow = typeof notifications.$inferSelect;
export type OutgoingMessage = {
  channel: 'email' | 'sms';
  recipient: string;
  template: string;
  subject?: string;
  text: string;
  html?: string;
  attachments?: NotificationAttachment[];
  dedupeKey?: string;
};

/** Written inside the caller's transaction: sent only if the change commits. */
export async function enqueue(tx: Db | Tx, messages: readonly OutgoingMessage[], now: Date) {
  if (messages.length === 0) return;
  await tx
    .insert(notifications)
    .values(messages.map((message) => ({ ...message, nextAttemptAt: now })))
    .onConflictDoNothing({ target: notifications.dedupeKey });
}

/**
 * Claims due messages for one worker: pending ones whose time has come, and "sending" ones
 * whose lease ran out (a worker died mid-delivery). SKIP LOCKED keeps two instances from
 * claiming the same row.
 */
export async function claimDue(db: Db, now: Date, limit: number, leaseMs: number) {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: notifications.id })
      .from(notifications)
      .where(
        and(
          inArray(notifications.status, ['pending', 'sending']),
          lte(notifications.nextAttemptAt, now),
        ),
      )
      .orderBy(asc(notifications.nextAttemptAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(notifications)
      .set({
        status: 'sending',
        attempts: sql`${notifications.attempts} + 1`,
        nextAttemptAt: new Date(now.getTime() + leaseMs),
      })
      .where(
        inArray(
          notifications.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
  });
}

export async function markSent(db: Db, id: string, now: Date) {
  await db
    .update(notifications)
    .set({ status: 'sent', sentAt: now, lastError: null })
    .where(eq(notifications.id, id));
}

export async function markFailed(db: Db, id: string, error: string, retryAt: Date | null) {
  await db
    .update(notifications)
    .set(
      retryAt
        ? { status: 'pending', lastError: error, nextAttemptAt: retryAt }
        : { status: 'failed', lastError: error },
    )
    .where(eq(notifications.id, id));
}

/** Messages not yet delivered (pending or under way): the outbox's depth, for /metrics. */
export async function countUndelivered(db: Db): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(notifications)
    .where(inArray(notifications.status, ['pending', 'sending']));
  return row?.count ?? 0;
}
