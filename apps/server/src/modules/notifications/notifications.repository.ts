import { and, asc, eq, inArray, lt, lte, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, Db, Tx } from '../../db/client.ts';
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

/** PostgreSQL delivers it on commit only, to every instance listening. */
const ENQUEUED_CHANNEL = 'notifications_enqueued';

/** Written inside the caller's transaction: sent only if the change commits. */
export async function enqueue(tx: Db | Tx, messages: readonly OutgoingMessage[], now: Date) {
  if (messages.length === 0) return;
  await tx
    .insert(notifications)
    .values(messages.map((message) => ({ ...message, nextAttemptAt: now })))
    .onConflictDoNothing({ target: notifications.dedupeKey });
  await tx.execute(sql`select pg_notify(${ENQUEUED_CHANNEL}, '')`);
}

/** Calls `onEnqueued` after each commit that wrote messages, whichever instance wrote them. */
export function listenForEnqueued(database: Pick<Database, 'listen'>, onEnqueued: () => void) {
  return database.listen(ENQUEUED_CHANNEL, onEnqueued);
}

const earlier = alias(notifications, 'earlier');

/**
 * Claims due messages for one worker: pending ones whose time has come, and "sending" ones
 * whose lease ran out (a worker died mid-delivery). SKIP LOCKED keeps two instances from
 * claiming the same row. Only a recipient's oldest unsent message is ever claimable, so their
 * messages go out in order on every instance, and one being sent or waiting for a retry holds
 * back the later ones.
 */
export async function claimDue(db: Db, now: Date, limit: number, leaseMs: number) {
  const due = db
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(
        // Literal, as in the partial indexes notifications_due_idx and _unsent_recipient_idx,
        // so the planner can use them.
        sql`${notifications.status} in ('pending', 'sending')`,
        lte(notifications.nextAttemptAt, now),
        notExists(
          db
            .select({ id: earlier.id })
            .from(earlier)
            .where(
              and(
                eq(earlier.recipient, notifications.recipient),
                sql`${earlier.status} in ('pending', 'sending')`,
                lt(earlier.seq, notifications.seq),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(notifications.nextAttemptAt), asc(notifications.seq))
    .limit(limit)
    .for('update', { skipLocked: true });
  // One statement, one round trip. `= any(array(...))` runs the subquery once, then finds the
  // rows by primary key (`in (...)` was planned as a scan of the whole table).
  return db
    .update(notifications)
    .set({
      status: 'sending',
      attempts: sql`${notifications.attempts} + 1`,
      nextAttemptAt: new Date(now.getTime() + leaseMs),
    })
    .where(sql`${notifications.id} = any(array(${due}))`)
    .returning();
}

/**
 * A claim is its row in `sending` at the attempt it counted. Once its lease ran out another
 * worker may have claimed the row again (one more attempt): the first then changes nothing.
 */
function heldClaims(claims: readonly Pick<NotificationRow, 'id' | 'attempts'>[]) {
  const pairs = claims.map((claim) => sql`(${claim.id}::uuid, ${claim.attempts}::int)`);
  return and(
    eq(notifications.status, 'sending'),
    sql`(${notifications.id}, ${notifications.attempts}) in (${sql.join(pairs, sql`, `)})`,
  );
}

/** In one statement; returns the ids marked (a claim no longer held is left as it is). */
export async function markSent(db: Db, claims: readonly NotificationRow[], now: Date) {
  const marked = await db
    .update(notifications)
    .set({ status: 'sent', sentAt: now, lastError: null })
    .where(heldClaims(claims))
    .returning({ id: notifications.id });
  return marked.map((row) => row.id);
}

/** Back to pending until `retryAt`, or failed for good without one (if the claim is held). */
export async function markFailed(
  db: Db,
  claim: NotificationRow,
  error: string,
  retryAt: Date | null,
) {
  await db
    .update(notifications)
    .set(
      retryAt
        ? { status: 'pending', lastError: error, nextAttemptAt: retryAt }
        : { status: 'failed', lastError: error },
    )
    .where(heldClaims([claim]));
}

/**
 * Deletes at most `limit` messages sent before `before`; returns how many went. A message holds
 * a visitor's address and what was said about their visit, and once delivered nothing reads it.
 */
export async function deleteSentBefore(db: Db, before: Date, limit: number): Promise<number> {
  const old = db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.status, 'sent'), lt(notifications.sentAt, before)))
    .limit(limit);
  const deleted = await db
    .delete(notifications)
    .where(inArray(notifications.id, old))
    .returning({ id: notifications.id });
  return deleted.length;
}

/** Messages not yet delivered (pending or under way): the outbox's depth, for /metrics. */
export async function countUndelivered(db: Db): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(notifications)
    .where(inArray(notifications.status, ['pending', 'sending']));
  return row?.count ?? 0;
}
