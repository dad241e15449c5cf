import type { ListPaymentsQuery, PaymentKind, PaymentStatus } from '@upnext/contract/payments';
import {
  and,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  companies,
  payments,
  paymentWebhookEvents,
  queues,
  queueTokens,
  sessions,
} from '../../db/schema/index.ts';

type Queryable = Db | Tx;
export type PaymentRow = typeof payments.$inferSelect;
export type NewPayment = typeof payments.$inferInsert;

export async function insertPayment(tx: Queryable, values: NewPayment): Promise<PaymentRow> {
  const [row] = await tx.insert(payments).values(values).returning();
  if (!row) throw new Error('payment not inserted');
  return row;
}

export async function findPayment(db: Queryable, id: string) {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

/** Locks the payment row (after the session, slot and token: the one lock order). */
export async function lockPayment(tx: Tx, id: string, options: { skipLocked?: boolean } = {}) {
  const [row] = await tx
    .select()
    .from(payments)
    .where(eq(payments.id, id))
    .for('update', options.skipLocked ? { skipLocked: true } : {});
  return row;
}

export async function updatePayment(tx: Queryable, id: string, values: Partial<NewPayment>) {
  const [row] = await tx.update(payments).set(values).where(eq(payments.id, id)).returning();
  if (!row) throw new Error(`payment ${id} vanished`);
  return row;
}

/** Sets the checkout of a payment that has none yet; undefined when another request set one first. */
export async function setCheckout(
  db: Queryable,
  id: string,
  values: { provider: string; providerRef: string; checkoutUrl: string; updatedAt: Date },
) {
  const [row] = await db
    .update(payments)
    .set(values)
    .where(and(eq(payments.id, id), sql`${payments.providerRef} is null`))
    .returning();
  return row;
}

/** The latest payment of each token (what the token shows). */
export async function latestPaymentsOf(db: Queryable, tokenIds: readonly string[]) {
  if (tokenIds.length === 0) return new Map<string, PaymentRow>();
  const rows = await db
    .selectDistinctOn([payments.tokenId])
    .from(payments)
    .where(inArray(payments.tokenId, [...tokenIds]))
    .orderBy(payments.tokenId, desc(payments.createdAt), desc(payments.id));
  return new Map(rows.map((row) => [row.tokenId as string, row]));
}

/**
 * Records a webhook event by its provider's id; false when it was recorded before (a replay).
 * Concurrent deliveries of one event wait on the primary key, so exactly one applies it.
 */
export async function recordWebhookEvent(tx: Tx, provider: string, eventId: string, now: Date) {
  const rows = await tx
    .insert(paymentWebhookEvents)
    .values({ provider, eventId, receivedAt: now })
    .onConflictDoNothing()
    .returning({ eventId: paymentWebhookEvents.eventId });
  return rows.length === 1;
}

/** Open checkouts whose hold (or checkout) ran out: the sweep's candidates, unlocked. */
export async function dueOpenPayments(db: Queryable, now: Date, limit: number) {
  return db
    .select({
      id: payments.id,
      kind: payments.kind,
      tokenId: payments.tokenId,
      providerRef: payments.providerRef,
    })
    .from(payments)
    .where(and(eq(payments.status, 'pending'), lte(payments.expiresAt, now)))
    .orderBy(payments.expiresAt)
    .limit(limit);
}

/**
 * Refunds recorded as pending whose provider call never stored an answer (the server stopped
 * between the commit and the answer): the sweep's candidates for asking again, unlocked.
 */
export async function strandedRefunds(db: Queryable, before: Date, limit: number) {
  return db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.refundStatus, 'pending'),
        isNull(payments.refundRef),
        gt(payments.refundPendingMinor, 0),
        lt(payments.updatedAt, before),
      ),
    )
    .orderBy(payments.updatedAt)
    .limit(limit);
}

export async function findByRefundRef(db: Queryable, refundRef: string) {
  const [row] = await db.select().from(payments).where(eq(payments.refundRef, refundRef));
  return row;
}

/** What a payment's page and the admin list show beside the payment itself. */
const viewColumns = {
  payment: payments,
  companyName: companies.name,
  token: {
    id: queueTokens.id,
    sessionId: queueTokens.sessionId,
    displayNumber: queueTokens.displayNumber,
    status: queueTokens.status,
    cancelReason: queueTokens.cancelReason,
  },
  queueId: queues.id,
  queueName: queues.name,
  joinCode: queues.joinCode,
};
export type PaymentView = {
  payment: PaymentRow;
  companyName: string;
  token: {
    id: string;
    sessionId: string;
    displayNumber: string;
    status: string;
    cancelReason: string | null;
  } | null;
  queueId: string | null;
  queueName: string | null;
  joinCode: string | null;
};

function selectViews(db: Queryable) {
  return db
    .select(viewColumns)
    .from(payments)
    .innerJoin(companies, eq(companies.id, payments.companyId))
    .leftJoin(queueTokens, eq(queueTokens.id, payments.tokenId))
    .leftJoin(sessions, eq(sessions.id, queueTokens.sessionId))
    .leftJoin(queues, eq(queues.id, sessions.queueId));
}

export async function findPaymentView(db: Queryable, id: string) {
  const [row] = await selectViews(db).where(eq(payments.id, id));
  return row as PaymentView | undefined;
}

export async function listPaymentViews(
  db: Queryable,
  companyId: string,
  filter: ListPaymentsQuery,
) {
  const conditions: (SQL | undefined)[] = [
    eq(payments.companyId, companyId),
    filter.kind ? eq(payments.kind, filter.kind as PaymentKind) : undefined,
    filter.status ? eq(payments.status, filter.status as PaymentStatus) : undefined,
    filter.from ? gte(payments.createdAt, new Date(filter.from)) : undefined,
    filter.to ? lt(payments.createdAt, new Date(filter.to)) : undefined,
  ];
  if (filter.query) {
    const like = `%${filter.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      or(
        ilike(payments.payerEmail, like),
        ilike(payments.promotionCode, like),
        ilike(queueTokens.displayNumber, like),
        ilike(queues.name, like),
      ),
    );
  }
  const where = and(...conditions.filter((c) => c !== undefined));
  const [count] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(payments)
    .leftJoin(queueTokens, eq(queueTokens.id, payments.tokenId))
    .leftJoin(sessions, eq(sessions.id, queueTokens.sessionId))
    .leftJoin(queues, eq(queues.id, sessions.queueId))
    .where(where);
  const rows = await selectViews(db)
    .where(where)
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
  return { rows: rows as PaymentView[], total: count?.total ?? 0 };
}

// --- A company's plan ---------------------------------------------------------------------

export async function companyBySubscription(db: Queryable, subscriptionRef: string) {
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.planSubscriptionRef, subscriptionRef));
  return row?.id;
}

/**
 * Paid plans whose period is over: cancelled ones at the period's end, others once the grace
 * for a renewal has passed too. Unlocked candidates; the sweep locks and checks each again.
 */
export async function lapsingCompanies(db: Queryable, now: Date, graceMs: number, limit: number) {
  const graceEnd = new Date(now.getTime() - graceMs);
  return db
    .select({ id: companies.id })
    .from(companies)
    .where(
      and(
        sql`${companies.plan} <> 'free'`,
        isNotNull(companies.planRenewsAt),
        or(
          and(eq(companies.planCancelsAtPeriodEnd, true), lte(companies.planRenewsAt, now)),
          lte(companies.planRenewsAt, graceEnd),
        ),
      ),
    )
    .limit(limit);
}
