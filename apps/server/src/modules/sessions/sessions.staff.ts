import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { subQueueStaff } from '../../db/schema/queues.ts';

type Queryable = Db | Tx;

/** Sub-queues the user is assigned to serve (sub_queue_staff, kept by the queues module). */
export async function assignedSubQueueIds(db: Queryable, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: subQueueStaff.subQueueId })
    .from(subQueueStaff)
    .where(eq(subQueueStaff.userId, userId));
  return rows.map((row) => row.id);
}
