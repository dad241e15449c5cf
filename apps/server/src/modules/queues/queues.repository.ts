import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { companies, companyUsers } from '../../db/schema/companies.ts';
import {
  queues,
  serviceAreas,
  serviceTypes,
  subQueueStaff,
  subQueues,
} from '../../db/schema/queues.ts';

type Queryable = Db | Tx;
export type QueueRow = typeof queues.$inferSelect;
export type QueueWithCompany = QueueRow & {
  company: { id: string; name: string; slug: string; timezone: string; logoUrl: string | null };
};
export type SubQueueRow = typeof subQueues.$inferSelect & { staffUserIds: string[] };
export type ServiceTypeRow = typeof serviceTypes.$inferSelect;
export type ServiceAreaRow = typeof serviceAreas.$inferSelect;

const companySummary = {
  id: companies.id,
  name: companies.name,
  slug: companies.slug,
  timezone: companies.timezone,
  logoUrl: companies.logoUrl,
};

function selectQueues(db: Queryable) {
  return db
    .select({ queue: queues, company: companySummary })
    .from(queues)
    .innerJoin(companies, eq(companies.id, queues.companyId));
}

const flatten = (rows: Array<{ queue: QueueRow; company: QueueWithCompany['company'] }>) =>
  rows.map((row) => ({ ...row.queue, company: row.company }));

export async function findQueue(db: Queryable, id: string): Promise<QueueWithCompany | undefined> {
  return flatten(await selectQueues(db).where(eq(queues.id, id)).limit(1))[0];
}

export async function findQueueByCode(
  db: Queryable,
  code: string,
): Promise<QueueWithCompany | undefined> {
  return flatten(await selectQueues(db).where(eq(queues.joinCode, code)).limit(1))[0];
}

export async function listQueues(
  db: Queryable,
  filter: {
    companyId: string;
    status?: QueueRow['status'];
    visibility?: QueueRow['visibility'];
  },
): Promise<QueueWithCompany[]> {
  const where = [eq(queues.companyId, filter.companyId)];
  if (filter.status) where.push(eq(queues.status, filter.status));
  if (filter.visibility) where.push(eq(queues.visibility, filter.visibility));
  return flatten(
    await selectQueues(db)
      .where(and(...where))
      .orderBy(asc(queues.name), asc(queues.id)),
  );
}

export async function insertQueue(db: Queryable, values: typeof queues.$inferInsert) {
  const [row] = await db.insert(queues).values(values).returning({ id: queues.id });
  if (!row) throw new Error('queue not inserted');
  return row.id;
}

export async function updateQueueRow(
  db: Queryable,
  id: string,
  values: Partial<typeof queues.$inferInsert>,
): Promise<void> {
  await db.update(queues).set(values).where(eq(queues.id, id));
}

// Sub-queues ---------------------------------------------------------------------------

async function withStaff(
  db: Queryable,
  rows: Array<typeof subQueues.$inferSelect>,
): Promise<SubQueueRow[]> {
  if (rows.length === 0) return [];
  const staff = await db
    .select()
    .from(subQueueStaff)
    .where(
      inArray(
        subQueueStaff.subQueueId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(subQueueStaff.createdAt), asc(subQueueStaff.userId));
  return rows.map((row) => ({
    ...row,
    staffUserIds: staff.filter((s) => s.subQueueId === row.id).map((s) => s.userId),
  }));
}

export async function listSubQueues(db: Queryable, queueId: string): Promise<SubQueueRow[]> {
  const rows = await db
    .select()
    .from(subQueues)
    .where(eq(subQueues.queueId, queueId))
    .orderBy(asc(subQueues.name), asc(subQueues.id));
  return withStaff(db, rows);
}

export async function findSubQueue(
  db: Queryable,
  queueId: string,
  id: string,
): Promise<SubQueueRow | undefined> {
  const rows = await db
    .select()
    .from(subQueues)
    .where(and(eq(subQueues.queueId, queueId), eq(subQueues.id, id)));
  return (await withStaff(db, rows))[0];
}

export async function insertSubQueue(tx: Tx, values: typeof subQueues.$inferInsert) {
  const [row] = await tx.insert(subQueues).values(values).returning({ id: subQueues.id });
  if (!row) throw new Error('sub-queue not inserted');
  return row.id;
}

export async function updateSubQueueRow(
  db: Queryable,
  id: string,
  values: Partial<typeof subQueues.$inferInsert>,
) {
  await db.update(subQueues).set(values).where(eq(subQueues.id, id));
}

export async function replaceSubQueueStaff(tx: Tx, subQueueId: string, userIds: string[]) {
  await tx.delete(subQueueStaff).where(eq(subQueueStaff.subQueueId, subQueueId));
  if (userIds.length > 0) {
    await tx.insert(subQueueStaff).values(userIds.map((userId) => ({ subQueueId, userId })));
  }
}

export async function deleteSubQueueRow(db: Queryable, queueId: string, id: string) {
  const rows = await db
    .delete(subQueues)
    .where(and(eq(subQueues.queueId, queueId), eq(subQueues.id, id)))
    .returning({ id: subQueues.id });
  return rows.length > 0;
}

/** Of `userIds`, those that are not active or invited members of the company. */
export async function nonMembers(
  db: Queryable,
  companyId: string,
  userIds: string[],
): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ userId: companyUsers.userId })
    .from(companyUsers)
    .where(
      and(
        eq(companyUsers.companyId, companyId),
        inArray(companyUsers.userId, userIds),
        inArray(companyUsers.status, ['active', 'invited']),
      ),
    );
  const found = new Set(rows.map((row) => row.userId));
  return userIds.filter((id) => !found.has(id));
}

// Service types and areas -----------------------------------------------------------------

export async function listServiceTypes(db: Queryable, queueId: string, activeOnly: boolean) {
  const where = [eq(serviceTypes.queueId, queueId)];
  if (activeOnly) where.push(eq(serviceTypes.active, true));
  return db
    .select()
    .from(serviceTypes)
    .where(and(...where))
    .orderBy(asc(serviceTypes.name), asc(serviceTypes.id));
}

export async function findServiceType(db: Queryable, queueId: string, id: string) {
  const [row] = await db
    .select()
    .from(serviceTypes)
    .where(and(eq(serviceTypes.queueId, queueId), eq(serviceTypes.id, id)));
  return row;
}

export async function insertServiceType(db: Queryable, values: typeof serviceTypes.$inferInsert) {
  const [row] = await db.insert(serviceTypes).values(values).returning();
  if (!row) throw new Error('service type not inserted');
  return row;
}

export async function updateServiceTypeRow(
  db: Queryable,
  queueId: string,
  id: string,
  values: Partial<typeof serviceTypes.$inferInsert>,
) {
  const [row] = await db
    .update(serviceTypes)
    .set(values)
    .where(and(eq(serviceTypes.queueId, queueId), eq(serviceTypes.id, id)))
    .returning();
  return row;
}

export async function deleteServiceTypeRow(db: Queryable, queueId: string, id: string) {
  const rows = await db
    .delete(serviceTypes)
    .where(and(eq(serviceTypes.queueId, queueId), eq(serviceTypes.id, id)))
    .returning({ id: serviceTypes.id });
  return rows.length > 0;
}

export async function listServiceAreas(db: Queryable, queueId: string) {
  return db
    .select()
    .from(serviceAreas)
    .where(eq(serviceAreas.queueId, queueId))
    .orderBy(asc(serviceAreas.name), asc(serviceAreas.id));
}

export async function findServiceArea(db: Queryable, queueId: string, id: string) {
  const [row] = await db
    .select()
    .from(serviceAreas)
    .where(and(eq(serviceAreas.queueId, queueId), eq(serviceAreas.id, id)));
  return row;
}

export async function insertServiceArea(db: Queryable, values: typeof serviceAreas.$inferInsert) {
  const [row] = await db.insert(serviceAreas).values(values).returning();
  if (!row) throw new Error('service area not inserted');
  return row;
}

export async function updateServiceAreaRow(
  db: Queryable,
  queueId: string,
  id: string,
  values: Partial<typeof serviceAreas.$inferInsert>,
) {
  const [row] = await db
    .update(serviceAreas)
    .set(values)
    .where(and(eq(serviceAreas.queueId, queueId), eq(serviceAreas.id, id)))
    .returning();
  return row;
}

export async function deleteServiceAreaRow(db: Queryable, queueId: string, id: string) {
  const rows = await db
    .delete(serviceAreas)
    .where(and(eq(serviceAreas.queueId, queueId), eq(serviceAreas.id, id)))
    .returning({ id: serviceAreas.id });
  return rows.length > 0;
}
