import { and, asc, eq, gt, isNull, lte, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { clientPromotions, queues } from '../../db/schema/queues.ts';

type Queryable = Db | Tx;
export type PromotionRow = typeof clientPromotions.$inferSelect;

export async function findPromotion(db: Queryable, id: string): Promise<PromotionRow | undefined> {
  const [row] = await db.select().from(clientPromotions).where(eq(clientPromotions.id, id));
  return row;
}

export async function listAllPromotions(db: Queryable, companyId: string, queueId?: string) {
  const where = [eq(clientPromotions.companyId, companyId)];
  if (queueId) where.push(eq(clientPromotions.queueId, queueId));
  return db
    .select()
    .from(clientPromotions)
    .where(and(...where))
    .orderBy(asc(clientPromotions.createdAt), asc(clientPromotions.id));
}

/**
 * Promotions a visitor may use at `now`: active, inside their window, and company-wide or
 * for an active queue that is not private. With `queueId`: those that apply to that queue.
 */
export async function listCurrentPromotions(
  db: Queryable,
  companyId: string,
  now: Date,
  queueId?: string,
): Promise<PromotionRow[]> {
  const where = [
    eq(clientPromotions.companyId, companyId),
    eq(clientPromotions.active, true),
    or(isNull(clientPromotions.validFrom), lte(clientPromotions.validFrom, now)),
    or(isNull(clientPromotions.validTo), gt(clientPromotions.validTo, now)),
    or(
      isNull(clientPromotions.queueId),
      and(
        eq(queues.status, 'active'),
        or(eq(queues.visibility, 'public'), eq(queues.visibility, 'unlisted')),
      ),
    ),
  ];
  if (queueId)
    where.push(or(isNull(clientPromotions.queueId), eq(clientPromotions.queueId, queueId)));
  const rows = await db
    .select({ promotion: clientPromotions })
    .from(clientPromotions)
    .leftJoin(queues, eq(queues.id, clientPromotions.queueId))
    .where(and(...where))
    .orderBy(asc(clientPromotions.createdAt), asc(clientPromotions.id));
  return rows.map((row) => row.promotion);
}

export async function insertPromotion(db: Queryable, values: typeof clientPromotions.$inferInsert) {
  const [row] = await db.insert(clientPromotions).values(values).returning();
  if (!row) throw new Error('promotion not inserted');
  return row;
}

export async function updatePromotionRow(
  db: Queryable,
  id: string,
  values: Partial<typeof clientPromotions.$inferInsert>,
) {
  const [row] = await db
    .update(clientPromotions)
    .set(values)
    .where(eq(clientPromotions.id, id))
    .returning();
  return row;
}

export async function deletePromotionRow(db: Queryable, id: string) {
  await db.delete(clientPromotions).where(eq(clientPromotions.id, id));
}

export async function queueCompanyId(db: Queryable, queueId: string) {
  const [row] = await db
    .select({ companyId: queues.companyId })
    .from(queues)
    .where(eq(queues.id, queueId));
  return row?.companyId;
}
