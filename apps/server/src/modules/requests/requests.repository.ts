import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { authUsers } from '../../db/schema/auth.ts';
import { userProfiles } from '../../db/schema/companies.ts';
import { joinRequests, queues } from '../../db/schema/queues.ts';

type Queryable = Db | Tx;
export type JoinRequestRow = typeof joinRequests.$inferSelect & {
  queueName: string;
  companyId: string;
  email: string | null;
  displayName: string;
};

function selectRequests(db: Queryable) {
  return db
    .select({
      request: joinRequests,
      queueName: queues.name,
      companyId: queues.companyId,
      email: authUsers.email,
      displayName: sql<string>`coalesce(${userProfiles.displayName}, '')`,
    })
    .from(joinRequests)
    .innerJoin(queues, eq(queues.id, joinRequests.queueId))
    .innerJoin(authUsers, eq(authUsers.id, joinRequests.userId))
    .leftJoin(userProfiles, eq(userProfiles.userId, joinRequests.userId));
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectRequests>['where']>>[number];
const flatten = (rows: Selected[]): JoinRequestRow[] =>
  rows.map(({ request, ...rest }) => ({ ...request, ...rest }));

export async function findRequest(db: Queryable, id: string) {
  return flatten(await selectRequests(db).where(eq(joinRequests.id, id)))[0];
}

export async function findRequestOf(db: Queryable, queueId: string, userId: string) {
  return flatten(
    await selectRequests(db).where(
      and(eq(joinRequests.queueId, queueId), eq(joinRequests.userId, userId)),
    ),
  )[0];
}

export async function listRequests(
  db: Queryable,
  filter: { queueId?: string; userId?: string; status?: 'pending' | 'approved' | 'rejected' },
) {
  const where = [];
  if (filter.queueId) where.push(eq(joinRequests.queueId, filter.queueId));
  if (filter.userId) where.push(eq(joinRequests.userId, filter.userId));
  if (filter.status) where.push(eq(joinRequests.status, filter.status));
  return flatten(
    await selectRequests(db)
      .where(and(...where))
      .orderBy(desc(joinRequests.createdAt), desc(joinRequests.id)),
  );
}

/** New request, or a rejected one asked again (back to pending); pending/approved stay. */
export async function upsertRequest(
  db: Queryable,
  values: { queueId: string; userId: string; message: string; now: Date },
): Promise<{ created: boolean }> {
  const inserted = await db
    .insert(joinRequests)
    .values({
      queueId: values.queueId,
      userId: values.userId,
      message: values.message,
      createdAt: values.now,
      updatedAt: values.now,
    })
    .onConflictDoNothing()
    .returning({ id: joinRequests.id });
  if (inserted.length > 0) return { created: true };
  await db
    .update(joinRequests)
    .set({
      status: 'pending',
      message: values.message,
      decidedBy: null,
      decidedAt: null,
      updatedAt: values.now,
    })
    .where(
      and(
        eq(joinRequests.queueId, values.queueId),
        eq(joinRequests.userId, values.userId),
        eq(joinRequests.status, 'rejected'),
      ),
    );
  return { created: false };
}

export async function decideRequestRow(
  db: Queryable,
  id: string,
  values: { status: 'approved' | 'rejected'; decidedBy: string; now: Date },
) {
  await db
    .update(joinRequests)
    .set({
      status: values.status,
      decidedBy: values.decidedBy,
      decidedAt: values.now,
      updatedAt: values.now,
    })
    .where(eq(joinRequests.id, id));
}

export async function deleteRequestRow(db: Queryable, id: string) {
  await db.delete(joinRequests).where(eq(joinRequests.id, id));
}
