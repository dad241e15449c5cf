import type { Db, Tx } from '../../db/client.ts';
import type { Caller } from '../../http/caller.ts';
import { AppError } from '../../lib/errors.ts';
import { managers, requireCompanyRole } from '../companies/membership.policy.ts';
import { activeRoleIn } from '../companies/membership.repository.ts';
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
 *   active public or unlisted queues only; private and archived queues answer 404.
 */
export async function requireSessionManager(db: Queryable, caller: Caller, queue: QueueContext) {
  await requireCompanyRole(db, caller, queue.companyId, managers);
}

export async function requireSessionOperator(
  db: Queryable,
  caller: Caller,
  queue: QueueContext,
  subQueueId: string | null,
) {
  if (caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to continue.');
  const role = await activeRoleIn(db, queue.companyId, caller.userId);
  if (role === 'owner' || role === 'admin') return;
  if (
    role === 'staff' &&
    (subQueueId === null || (await isAssignedToSubQueue(db, caller.userId, subQueueId)))
  ) {
    return;
  }
  throw new AppError('forbidden', 'You do not have permission to run this session.');
}

/** `member` when the caller belongs to the queue's company, else `public` (or 404). */
export async function requireSessionReader(
  db: Queryable,
  caller: Caller,
  queue: QueueContext,
): Promise<'member' | 'public'> {
  if (caller.kind === 'user' && (await activeRoleIn(db, queue.companyId, caller.userId))) {
    return 'member';
  }
  if (queue.status === 'active' && queue.visibility !== 'private') return 'public';
  throw new AppError('not_found', 'This queue does not exist.');
}
