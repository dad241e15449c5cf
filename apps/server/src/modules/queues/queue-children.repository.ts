import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { serviceAreas, serviceTypes, subQueueStaff, subQueues } from '../../db/schema/queues.ts';

type Queryable = Db | Tx;
type ChildTable = typeof subQueues | typeof serviceTypes | typeof serviceAreas;

/**
 * The rows of one kind of a queue's parts (sub-queues, service types, service areas): every
 * query is scoped to its queue, so an id from another queue is simply not found.
 */
export interface ChildRows<Row, Insert> {
  list(db: Queryable, queueId: string, where?: SQL): Promise<Row[]>;
  find(db: Queryable, queueId: string, id: string): Promise<Row | undefined>;
  insert(db: Queryable, values: Insert): Promise<string>;
  update(db: Queryable, queueId: string, id: string, values: Partial<Insert>): Promise<boolean>;
  remove(db: Queryable, queueId: string, id: string): Promise<boolean>;
}

// Drizzle cannot type a query over a union of tables; each export below pins its table's types.
function childRows<Row, Insert>(table: ChildTable): ChildRows<Row, Insert> {
  const t = table as typeof serviceAreas;
  const scoped = (queueId: string, id: string) => and(eq(t.queueId, queueId), eq(t.id, id));
  return {
    list: async (db, queueId, where) =>
      (await db
        .select()
        .from(t)
        .where(and(eq(t.queueId, queueId), where))
        .orderBy(asc(t.name), asc(t.id))) as Row[],
    find: async (db, queueId, id) =>
      ((await db.select().from(t).where(scoped(queueId, id)).limit(1)) as Row[])[0],
    insert: async (db, values) => {
      const [row] = await db
        .insert(t)
        .values(values as typeof serviceAreas.$inferInsert)
        .returning({ id: t.id });
      if (!row) throw new Error('queue part not inserted');
      return row.id;
    },
    update: async (db, queueId, id, values) =>
      (await db.update(t).set(values).where(scoped(queueId, id)).returning({ id: t.id })).length >
      0,
    remove: async (db, queueId, id) =>
      (await db.delete(t).where(scoped(queueId, id)).returning({ id: t.id })).length > 0,
  };
}

export type SubQueueRow = typeof subQueues.$inferSelect & { staffUserIds: string[] };
export type ServiceTypeRow = typeof serviceTypes.$inferSelect;
export type ServiceAreaRow = typeof serviceAreas.$inferSelect;

export const serviceTypeRows = childRows<ServiceTypeRow, typeof serviceTypes.$inferInsert>(
  serviceTypes,
);
export const serviceAreaRows = childRows<ServiceAreaRow, typeof serviceAreas.$inferInsert>(
  serviceAreas,
);

/** Visitors see active service types only. */
export const activeServiceTypes = eq(serviceTypes.active, true);

const plainSubQueueRows = childRows<typeof subQueues.$inferSelect, typeof subQueues.$inferInsert>(
  subQueues,
);

/** Sub-queues come with the ids of the staff assigned to serve them. */
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

export const subQueueRows: ChildRows<SubQueueRow, typeof subQueues.$inferInsert> = {
  ...plainSubQueueRows,
  list: async (db, queueId, where) =>
    withStaff(db, await plainSubQueueRows.list(db, queueId, where)),
  find: async (db, queueId, id) => {
    const row = await plainSubQueueRows.find(db, queueId, id);
    return row ? (await withStaff(db, [row]))[0] : undefined;
  },
};

export async function replaceSubQueueStaff(tx: Tx, subQueueId: string, userIds: string[]) {
  await tx.delete(subQueueStaff).where(eq(subQueueStaff.subQueueId, subQueueId));
  if (userIds.length > 0) {
    await tx.insert(subQueueStaff).values(userIds.map((userId) => ({ subQueueId, userId })));
  }
}
