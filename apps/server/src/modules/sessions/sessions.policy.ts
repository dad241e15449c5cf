import type { Db, Tx } from '../../db/client.ts';
import type { Caller } from '../../http/caller.ts';
import { AppError } from '../../lib/errors.ts';
import { activeRoleIn } from '../companies/membership.repository.ts';
import { hasApprovedRequest } from '../queues/queues.repository.ts';
import type { QueueContext } from './sessions.repository.ts';
import { isAssignedToSubQueue } from './sessions.staff.ts';

type Queryable = Db | Tx;

/**
 * Who may do what with sessions:
 * - owners and admins of the queue's company schedule, edit, delete, add services, block
 *   slots and change any session's status;
 * - staff of the company read all its sessions, and change the status of (and block slots
 *   in) the sessions of sub-queues they are assigned to (a session without a sub-queue is
 *   the whole company staff's);
 * - everyone else (clients, anonymous callers, other companies' members) reads sessions of
 *   active public or unlisted queues, and of private ones they hold an approved request for.
 * Those who may not even read a queue get 404 for it, so its existence does not leak;
 * anonymous callers get 401 for writes.
 */
async function access(
  db: Queryable,
  caller: Caller,
  queue: QueueContext,
): Promise<'owner' | 'admin' | 'staff' | 'visitor' | 'none'> {
  const role =
    caller.kind === 'user' ? await activeRoleIn(db, queue.companyId, caller.userId) : undefined;
  if (role) return role;
  if (queue.status !== 'active') return 'none';
  if (queue.visibility !== 'private') return 'visitor';
  if (caller.kind === 'user' && (await hasApprovedRequest(db, queue.id, caller.userId))) {
    return 'visitor';
  }
  return 'none';
}

const hidden = () => new AppError('not_found', 'No such queue.');
const forbidden = () =>
  new AppError('forbidden', 'You do not have permission to do this in this company.');

export async function requireSessionManager(db: Queryable, caller: Caller, queue: QueueContext) {
  if (caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to continue.');
  const found = await access(db, caller, queue);
  if (found === 'owner' || found === 'admin') return;
  if (found === 'none') throw hidden();
  throw forbidden();
}

export async function requireSessionOperator(
  db: Queryable,
  caller: Caller,
  queue: QueueContext,
  subQueueId: string | null,
) {
  if (caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to continue.');
  const found = await access(db, caller, queue);
  if (found === 'owner' || found === 'admin') return;
  if (
    found === 'staff' &&
    (subQueueId === null || (await isAssignedToSubQueue(db, caller.userId, subQueueId)))
  ) {
    return;
  }
  if (found === 'none') throw hidden();
  throw forbidden();
}

/** `member` when the caller belongs to the queue's company, `public` for visitors, else 404. */
export async function requireSessionReader(
  db: Queryable,
  caller: Caller,
  queue: QueueContext,
): Promise<'member' | 'public'> {
  const found = await access(db, caller, queue);
  if (found === 'none') throw hidden();
  return found === 'visitor' ? 'public' : 'member';
}
