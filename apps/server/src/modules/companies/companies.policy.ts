import type { Db, Tx } from '../../db/client.ts';
import type { CompanyRole } from '../../db/schema/companies.ts';
import { AppError } from '../../lib/errors.ts';
import { authorize, type Standing, signedInOf } from '../access/access.ts';
import type { Caller, SignedInCaller } from '../access/caller.ts';

const company = (companyId: string) => ({ kind: 'company', companyId }) as const;
const roleOf = (standing: Standing) => standing.role as CompanyRole;

/** Any signed-in user with an account may found a company (and becomes its owner). */
export async function canCreateCompany(db: Db, caller: Caller): Promise<SignedInCaller> {
  return signedInOf(await authorize(db, caller, 'company.create', { kind: 'anything' }));
}

/** Reading the company's settings: any active member. */
export const canReadCompany = async (db: Db | Tx, caller: Caller, companyId: string) =>
  roleOf(await authorize(db, caller, 'company.read', company(companyId)));

/** Changing settings and managing members: owners and admins. */
export const canManageCompany = async (db: Db | Tx, caller: Caller, companyId: string) =>
  roleOf(await authorize(db, caller, 'company.manage', company(companyId)));

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
