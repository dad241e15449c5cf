import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import {
  allowedAmong,
  authorize,
  isMember,
  may,
  notFoundError,
  type QueueFacts,
  type Standing,
  sees,
  standingOf,
} from '../access/access.ts';
import type { Caller } from '../access/caller.ts';
import type { QueueWithCompany } from './queues.repository.ts';

type Queryable = Db | Tx;

const queueTarget = (queue: QueueWithCompany) =>
  ({
    kind: 'queue',
    queueId: queue.id,
    companyId: queue.companyId,
    queueStatus: queue.status,
    visibility: queue.visibility,
  }) as const satisfies QueueFacts & { kind: 'queue' };

/** Creating queues: owners and admins. */
export const canManageQueues = (db: Queryable, caller: Caller, companyId: string) =>
  authorize(db, caller, 'queue.create', { kind: 'company', companyId });

/** Members see every queue of the company (archived and private ones too). */
/** The queues among `queues` the caller may read (a visitor's list of a company's queues). */
export async function readableQueues(
  db: Queryable,
  caller: Caller,
  queues: readonly QueueWithCompany[],
): Promise<QueueWithCompany[]> {
  const targets = queues.map((queue) => ({ ...queueTarget(queue), queue }));
  return (await allowedAmong(db, caller, 'queue.read', targets)).map((t) => t.queue);
}

export const seesAllQueues = async (db: Queryable, caller: Caller, companyId: string) =>
  may(await standingOf(db, caller, { kind: 'company', companyId }), 'queue.list_all');

export type QueueAccess = 'member' | 'visitor' | 'none' | 'needs_request';

function accessOf(standing: Standing, queue: QueueWithCompany): QueueAccess {
  if (isMember(standing)) return 'member';
  if (sees(standing)) return 'visitor';
  return queue.status === 'active' ? 'needs_request' : 'none';
}

/**
 * What the caller may see of a queue: members of its company everything; visitors (anonymous
 * too) an active public or unlisted queue, or an active private one they were approved for.
 */
export async function queueAccess(
  db: Queryable,
  caller: Caller,
  queue: QueueWithCompany,
): Promise<QueueAccess> {
  return accessOf(await standingOf(db, caller, queueTarget(queue)), queue);
}

/** Hidden queues are "not found" to those who may not see them: existence does not leak. */
export async function requireQueueReader(
  db: Queryable,
  caller: Caller,
  queue: QueueWithCompany | undefined,
): Promise<{ queue: QueueWithCompany; access: 'member' | 'visitor' }> {
  if (!queue) throw notFoundError.queue();
  const standing = await authorize(db, caller, 'queue.read', queueTarget(queue));
  return { queue, access: may(standing, 'queue.read_internal') ? 'member' : 'visitor' };
}

export async function requireQueueManager(
  db: Queryable,
  caller: Caller,
  queue: QueueWithCompany | undefined,
): Promise<QueueWithCompany> {
  if (caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to continue.');
  if (!queue) throw notFoundError.queue();
  await authorize(db, caller, 'queue.manage', queueTarget(queue));
  return queue;
}
