import type { Db, Tx } from '../../db/client.ts';
import type { CompanyRole } from '../../db/schema/companies.ts';
import type { Caller } from '../../http/caller.ts';
import { AppError } from '../../lib/errors.ts';
import { activeRoleIn } from './membership.repository.ts';

export const managers: readonly CompanyRole[] = ['owner', 'admin'];

/**
 * The caller's role in the company when it is one of `allowed`; otherwise 401 for anonymous
 * callers and 403 for everyone else (members of other companies included).
 */
export async function requireCompanyRole(
  db: Db | Tx,
  caller: Caller,
  companyId: string,
  allowed: readonly CompanyRole[],
): Promise<CompanyRole> {
  if (caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to continue.');
  const role = await activeRoleIn(db, companyId, caller.userId);
  if (!role || !allowed.includes(role)) {
    throw new AppError('forbidden', 'You do not have permission to do this in this company.');
  }
  return role;
}
