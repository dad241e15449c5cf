import type { Db } from '../../db/client.ts';
import type { Caller } from '../../http/caller.ts';
import { AppError } from '../../lib/errors.ts';
import { managers, requireCompanyRole } from '../companies/membership.policy.ts';
import type { PromotionRow } from './promotions.repository.ts';

/** Creating, changing and deleting promotions, and listing inactive ones: owners and admins. */
export const canManagePromotions = (db: Db, caller: Caller, companyId: string) =>
  requireCompanyRole(db, caller, companyId, managers);

/** A promotion one may not manage is 401/403 by company; an unknown id is 404 only to managers. */
export async function requirePromotionManager(
  db: Db,
  caller: Caller,
  promotion: PromotionRow | undefined,
): Promise<PromotionRow> {
  if (caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to continue.');
  if (!promotion) throw new AppError('not_found', 'No such promotion.');
  await canManagePromotions(db, caller, promotion.companyId);
  return promotion;
}
