import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { authorize, may, standingOf } from '../access/access.ts';
import type { Caller } from '../access/caller.ts';
import type { PromotionRow } from './promotions.repository.ts';

/** Creating, changing and deleting promotions, and listing inactive ones: owners and admins. */
export const canManagePromotions = (db: Db, caller: Caller, companyId: string) =>
  authorize(db, caller, 'promotion.manage', { kind: 'company', companyId });

/** Members also see promotions of their company's private queues. */
export const seesPrivatePromotions = async (db: Db, caller: Caller, companyId: string) =>
  may(await standingOf(db, caller, { kind: 'company', companyId }), 'promotion.list_private');

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
