import type {
  ClientPromotion,
  CreateClientPromotionBody,
  UpdateClientPromotionBody,
} from '@upnext/contract/promotions';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { iso } from '../../lib/rows.ts';
import type { Caller } from '../access/caller.ts';
import {
  canManagePromotions,
  requirePromotionManager,
  seesPrivatePromotions,
} from './promotions.policy.ts';
import {
  deletePromotionRow,
  findPromotion,
  insertPromotion,
  listAllPromotions,
  listCurrentPromotions,
  type PromotionRow,
  queueCompanyId,
  updatePromotionRow,
} from './promotions.repository.ts';

export type PromotionDeps = { db: Db; clock: Clock };

function promotionJson(row: PromotionRow): ClientPromotion {
  return {
    id: row.id,
    companyId: row.companyId,
    queueId: row.queueId,
    title: row.title,
    description: row.description,
    code: row.code,
    discountPercent: row.discountPercent,
    validFrom: iso(row.validFrom),
    validTo: iso(row.validTo),
    active: row.active,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

const invalid = (field: string, message: string) =>
  new AppError('validation_failed', message, { issues: [{ field: `body.${field}`, message }] });

async function assertQueueOfCompany(db: Db, companyId: string, queueId: string | null | undefined) {
  if (!queueId) return;
  if ((await queueCompanyId(db, queueId)) !== companyId) {
    throw invalid('queueId', 'Not a queue of this company');
  }
}

const toDate = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null ? null : new Date(value);

export async function listPromotions(
  deps: PromotionDeps,
  caller: Caller,
  query: { companyId: string; queueId?: string; scope: 'current' | 'all' },
): Promise<ClientPromotion[]> {
  if (query.scope === 'all') {
    await canManagePromotions(deps.db, caller, query.companyId);
    return (await listAllPromotions(deps.db, query.companyId, query.queueId)).map(promotionJson);
  }
  const rows = await listCurrentPromotions(deps.db, query.companyId, deps.clock(), query.queueId);
  // Members also see current promotions of their private queues.
  if (await seesPrivatePromotions(deps.db, caller, query.companyId)) {
    const now = deps.clock();
    const all = await listAllPromotions(deps.db, query.companyId);
    return all
      .filter(
        (row) =>
          row.active &&
          (!row.validFrom || row.validFrom <= now) &&
          (!row.validTo || row.validTo > now) &&
          (!query.queueId || row.queueId === null || row.queueId === query.queueId),
      )
      .map(promotionJson);
  }
  return rows.map(promotionJson);
}

export async function createPromotion(
  deps: PromotionDeps,
  caller: Caller,
  body: CreateClientPromotionBody,
): Promise<ClientPromotion> {
  await canManagePromotions(deps.db, caller, body.companyId);
  await assertQueueOfCompany(deps.db, body.companyId, body.queueId);
  const now = deps.clock();
  const row = await insertPromotion(deps.db, {
    companyId: body.companyId,
    queueId: body.queueId ?? null,
    title: body.title,
    description: body.description ?? '',
    code: body.code ?? null,
    discountPercent: body.discountPercent,
    validFrom: toDate(body.validFrom) ?? null,
    validTo: toDate(body.validTo) ?? null,
    active: body.active ?? true,
    createdAt: now,
    updatedAt: now,
  });
  return promotionJson(row);
}

export async function updatePromotion(
  deps: PromotionDeps,
  caller: Caller,
  id: string,
  body: UpdateClientPromotionBody,
): Promise<ClientPromotion> {
  const promotion = await requirePromotionManager(
    deps.db,
    caller,
    await findPromotion(deps.db, id),
  );
  await assertQueueOfCompany(deps.db, promotion.companyId, body.queueId);
  const validFrom = body.validFrom !== undefined ? toDate(body.validFrom) : promotion.validFrom;
  const validTo = body.validTo !== undefined ? toDate(body.validTo) : promotion.validTo;
  if (validFrom && validTo && validFrom >= validTo) {
    throw invalid('validTo', 'validTo must be after validFrom');
  }
  const { validFrom: _from, validTo: _to, ...rest } = body;
  const row = await updatePromotionRow(deps.db, id, {
    ...rest,
    ...(body.validFrom !== undefined ? { validFrom: toDate(body.validFrom) } : {}),
    ...(body.validTo !== undefined ? { validTo: toDate(body.validTo) } : {}),
    updatedAt: deps.clock(),
  });
  if (!row) throw new AppError('not_found', 'No such promotion.');
  return promotionJson(row);
}

export async function deletePromotion(deps: PromotionDeps, caller: Caller, id: string) {
  await requirePromotionManager(deps.db, caller, await findPromotion(deps.db, id));
  await deletePromotionRow(deps.db, id);
}
