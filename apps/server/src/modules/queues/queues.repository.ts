import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { companies, companyUsers } from '../../db/schema/companies.ts';
import { queues } from '../../db/schema/queues.ts';

type Queryable = Db | Tx;
export type QueueRow = typeof queues.$inferSelect;
export type QueueWithCompany = QueueRow & {
  company: {
    id: string;
    name: string;
    slug: string;
    timezone: string;
    /** National phone numbers entered for the queue's parts are read in it. */
    country: string;
    logoUrl: string | null;
  };
};

const companySummary = {
  id: companies.id,
  name: companies.name,
  slug: companies.slug,
  timezone: companies.timezone,
  country: companies.country,
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
  },
): Promise<QueueWithCompany[]> {
  const where = [eq(queues.companyId, filter.companyId)];
  if (filter.status) where.push(eq(queues.status, filter.status));
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
