import type { Db, Tx } from '../../db/client.ts';

type Queryable = Db | Tx;

/** Sub-queues the user is assigned to serve (sub_queue_staff, from the queues module). */
export async function assignedSubQueueIds(_db: Queryable, _userId: string): Promise<string[]> {
  // Replaced by a query of sub_queue_staff once that table is merged in.
  return [];
}

export async function isAssignedToSubQueue(
  db: Queryable,
  userId: string,
  subQueueId: string,
): Promise<boolean> {
  return (await assignedSubQueueIds(db, userId)).includes(subQueueId);
}
