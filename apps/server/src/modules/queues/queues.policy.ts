import type { Db, Tx } from '../../db/client.ts';
import type { CompanyRole } from '../../db/schema/companies.ts';
import type { Caller } from '../../http/caller.ts';
import { AppError } from '../../lib/errors.ts';
import { managers, requireCompanyRole } from '../companies/membership.policy.ts';
import { activeRoleIn } from '../companies/membership.repository.ts';
import { hasApprovedRequest, type QueueWithCompany } from './queues.repository.ts';

type Queryable = Db | Tx;

/** Creating, changing and archiving queues and their parts: owners and admins. */
export const canManageQueues = (db: Queryable, caller: Caller, companyId: string) =>
  requireCompanyRole(db, caller, companyId, managers);

export async function memberRole(
  db: Queryable,
  caller: Caller,
  companyId: string,
): Promise<CompanyRole | undefined> {
  return caller.kind === 'user' ? activeRoleIn(db, companyId, caller.userId) : undefined;
}

export type QueueAccess = 'member' | 'visitor' | 'none' | 'needs_request';

/**
 * What the caller may see of a queue: members of its company everything; visitors (anonymous
 * too) an active public or unlisted queue, or an active private one they were approved for.
 */
export async function queueAccess(
  db: Queryable,
  caller: Caller,
  queue: QueueWithCompany,
): Promise<QueueAccess> {
  if (await memberRole(db, caller, queue.companyId)) return 'member';
  if (queue.status !== 'active') return 'none';
  if (queue.visibility !== 'private') return 'visitor';
  if (caller.kind === 'user' && (await hasApprovedRequest(db, queue.id, caller.userId))) {
    return 'visitor';
  }
  return 'needs_request';
}

/** Hidden queues are "not found" to those who may not see them: existence does not leak. */
export async function requireQueueReader(
  db: Queryable,
  caller: Caller,
  queue: QueueWithCompany | undefined,
): Promise<{ queue: QueueWithCompany; access: 'member' | 'visitor' }> {
  if (!queue) throw queueNotFound();
  const access = await queueAccess(db, caller, queue);
  if (access === 'member' || access === 'visitor') return { queue, access };
  throw queueNotFound();
}

export async function requireQueueManager(
  db: Queryable,
  caller: Caller,
  queue: QueueWithCompany | undefined,
): Promise<QueueWithCompany> {
  if (caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to continue.');
  if (!queue) throw queueNotFound();
  const role = await memberRole(db, caller, queue.companyId);
  if (role && managers.includes(role)) return queue;
  // Those who cannot even see the queue learn nothing about it.
  const access = await queueAccess(db, caller, queue);
  if (access !== 'member' && access !== 'visitor') throw queueNotFound();
  throw new AppError('forbidden', 'You do not have permission to do this in this company.');
}

export const queueNotFound = () => new AppError('not_found', 'No such queue.');
