import type { Db, Tx } from '../../db/client.ts';
import type { CompanyRole } from '../../db/schema/companies.ts';
import type { Caller, SignedInCaller } from '../../http/caller.ts';
import { requireUser } from '../../http/caller.ts';
import { AppError } from '../../lib/errors.ts';
import { managers, requireCompanyRole } from './membership.policy.ts';

/** Any signed-in user may found a company (and becomes its owner). */
export function canCreateCompany(caller: Caller): SignedInCaller {
  const user = requireUser(caller);
  if (user.isAnonymous) {
    throw new AppError('forbidden', 'Create an account before you set up a company.');
  }
  return user;
}

/** Reading the company's settings: any active member. */
export const canReadCompany = (db: Db | Tx, caller: Caller, companyId: string) =>
  requireCompanyRole(db, caller, companyId, ['owner', 'admin', 'staff']);

/** Changing settings and managing members: owners and admins. */
export const canManageCompany = (db: Db | Tx, caller: Caller, companyId: string) =>
  requireCompanyRole(db, caller, companyId, managers);

/**
 * Whether an actor with `actorRole` may change a member holding `targetRole` into `newRole`:
 * admins never touch owners and never make anyone an owner; owners may do anything (the
 * last-owner rule is checked separately, under a lock).
 */
export function assertMayManageMember(
  actorRole: CompanyRole,
  targetRole: CompanyRole,
  newRole?: CompanyRole,
): void {
  if (actorRole === 'owner') return;
  if (actorRole !== 'admin') {
    throw new AppError('forbidden', 'You do not have permission to do this in this company.');
  }
  if (targetRole === 'owner' || newRole === 'owner') {
    throw new AppError('owner_protected', 'Only an owner can change an owner or make one.');
  }
}
