import { randomInt } from 'node:crypto';
import type {
  CreateQueueBody,
  CreateServiceAreaBody,
  CreateServiceTypeBody,
  CreateSubQueueBody,
  Queue,
  ServiceArea,
  ServiceType,
  SubQueue,
  UpdateQueueBody,
  UpdateServiceAreaBody,
  UpdateServiceTypeBody,
  UpdateSubQueueBody,
} from '@upnext/contract/queues';
import { isUniqueViolation } from '../../auth/users.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { iso } from '../../lib/rows.ts';
import type { Caller } from '../access/caller.ts';
import { findCompany } from '../companies/companies.repository.ts';
import {
  canManageQueues,
  queueAccess,
  queueNotFound,
  requireQueueManager,
  requireQueueReader,
  seesAllQueues,
} from './queues.policy.ts';
import {
  deleteServiceAreaRow,
  deleteServiceTypeRow,
  deleteSubQueueRow,
  findQueue,
  findQueueByCode,
  findServiceArea,
  findServiceType,
  findSubQueue,
  insertQueue,
  insertServiceArea,
  insertServiceType,
  insertSubQueue,
  listQueues as listQueueRows,
  listServiceAreas as listServiceAreaRows,
  listServiceTypes as listServiceTypeRows,
  listSubQueues as listSubQueueRows,
  nonMembers,
  type QueueWithCompany,
  replaceSubQueueStaff,
  type ServiceAreaRow,
  type ServiceTypeRow,
  type SubQueueRow,
  updateQueueRow,
  updateServiceAreaRow,
  updateServiceTypeRow,
  updateSubQueueRow,
} from './queues.repository.ts';

export type QueueDeps = { db: Db; clock: Clock };

// No 0/O or 1/I: codes are read aloud and typed from posters.
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export function newJoinCode(length = 6): string {
  let code = '';
  for (let i = 0; i < length; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** Retries with a fresh join code when the random one is taken (unique index). */
async function withFreshCode<T>(run: (code: string) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await run(newJoinCode(attempt < 3 ? 6 : 8));
    } catch (error) {
      if (attempt < 5 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

export function queueJson(row: QueueWithCompany): Queue {
  return {
    id: row.id,
    companyId: row.companyId,
    company: row.company,
    name: row.name,
    description: row.description,
    joinCode: row.joinCode,
    tokenPrefix: row.tokenPrefix,
    mode: row.mode,
    online: row.online,
    visibility: row.visibility,
    priceMinor: row.priceMinor,
    currency: row.currency,
    tokensPerVisitor: row.tokensPerVisitor,
    turnApproachingThreshold: row.turnApproachingThreshold,
    status: row.status,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** Who serves a sub-queue is for the company's members; visitors see an empty list. */
function subQueueJson(row: SubQueueRow, access: 'member' | 'visitor'): SubQueue {
  return {
    id: row.id,
    queueId: row.queueId,
    name: row.name,
    staffUserIds: access === 'member' ? row.staffUserIds : [],
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

function serviceTypeJson(row: ServiceTypeRow): ServiceType {
  return {
    id: row.id,
    queueId: row.queueId,
    name: row.name,
    description: row.description,
    durationMinutes: row.durationMinutes,
    priceMinor: row.priceMinor,
    active: row.active,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

function serviceAreaJson(row: ServiceAreaRow): ServiceArea {
  return {
    id: row.id,
    queueId: row.queueId,
    name: row.name,
    address: row.address,
    city: row.city,
    latitude: row.latitude,
    longitude: row.longitude,
    phone: row.phone,
    notes: row.notes,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

const priceUnpaired = () =>
  new AppError('validation_failed', 'Give both a price and a currency, or neither.', {
    issues: [{ field: 'body.currency', message: 'Give both a price and a currency, or neither' }],
  });

async function loadQueue(db: Db, id: string): Promise<QueueWithCompany> {
  const queue = await findQueue(db, id);
  if (!queue) throw queueNotFound();
  return queue;
}

// Queues -------------------------------------------------------------------------------------

/** Members see every queue of the company; anyone else its active public queues only. */
export async function listQueues(
  deps: QueueDeps,
  caller: Caller,
  query: { companyId: string; status?: 'active' | 'archived' },
): Promise<Queue[]> {
  if (await seesAllQueues(deps.db, caller, query.companyId)) {
    return (await listQueueRows(deps.db, query)).map(queueJson);
  }
  if (query.status === 'archived') return [];
  const rows = await listQueueRows(deps.db, {
    companyId: query.companyId,
    status: 'active',
    visibility: 'public',
  });
  return rows.map(queueJson);
}

export async function createQueue(
  deps: QueueDeps,
  caller: Caller,
  body: CreateQueueBody,
): Promise<Queue> {
  await canManageQueues(deps.db, caller, body.companyId);
  if (!(await findCompany(deps.db, body.companyId))) {
    throw new AppError('not_found', 'No such company.');
  }
  const { companyId, ...fields } = body;
  const now = deps.clock();
  const id = await withFreshCode((joinCode) =>
    insertQueue(deps.db, { ...fields, companyId, joinCode, createdAt: now, updatedAt: now }),
  );
  return queueJson(await loadQueue(deps.db, id));
}

export async function getQueue(deps: QueueDeps, caller: Caller, qid: string): Promise<Queue> {
  const { queue } = await requireQueueReader(deps.db, caller, await findQueue(deps.db, qid));
  return queueJson(queue);
}

/**
 * The /join entry: an active public or unlisted queue by its code. A private one answers
 * `join_request_required` (with its id and name, so the visitor can ask to join) unless the
 * caller was approved; archived and unknown codes are `not_found`.
 */
export async function getQueueByCode(
  deps: QueueDeps,
  caller: Caller,
  code: string,
): Promise<Queue> {
  const queue = await findQueueByCode(deps.db, code);
  if (!queue) throw new AppError('not_found', 'No queue has this code.');
  const access = await queueAccess(deps.db, caller, queue);
  if (access === 'member' || access === 'visitor') return queueJson(queue);
  if (access === 'needs_request') {
    throw new AppError('join_request_required', 'This queue is private: ask to join it first.', {
      queueId: queue.id,
      queueName: queue.name,
      companyName: queue.company.name,
    });
  }
  throw new AppError('not_found', 'No queue has this code.');
}

export async function updateQueue(
  deps: QueueDeps,
  caller: Caller,
  qid: string,
  body: UpdateQueueBody,
): Promise<Queue> {
  const queue = await requireQueueManager(deps.db, caller, await findQueue(deps.db, qid));
  const { regenerateJoinCode, ...fields } = body;
  const price = fields.priceMinor !== undefined ? fields.priceMinor : queue.priceMinor;
  const currency = fields.currency !== undefined ? fields.currency : queue.currency;
  if ((price === null) !== (currency === null)) throw priceUnpaired();
  const values = { ...fields, updatedAt: deps.clock() };
  if (regenerateJoinCode) {
    await withFreshCode((joinCode) => updateQueueRow(deps.db, qid, { ...values, joinCode }));
  } else {
    await updateQueueRow(deps.db, qid, values);
  }
  return queueJson(await loadQueue(deps.db, qid));
}

/** DELETE archives: sessions and tokens keep their queue; `PATCH status: active` restores. */
export async function archiveQueue(deps: QueueDeps, caller: Caller, qid: string): Promise<Queue> {
  await requireQueueManager(deps.db, caller, await findQueue(deps.db, qid));
  await updateQueueRow(deps.db, qid, { status: 'archived', updatedAt: deps.clock() });
  return queueJson(await loadQueue(deps.db, qid));
}

// Sub-queues -------------------------------------------------------------------------------

async function assertStaff(db: Db, companyId: string, userIds: string[] | undefined) {
  if (!userIds) return;
  const unknown = await nonMembers(db, companyId, [...new Set(userIds)]);
  if (unknown.length > 0) {
    throw new AppError('validation_failed', 'Only members of the company can be assigned.', {
      issues: [{ field: 'body.staffUserIds', message: 'Not members of this company' }],
      userIds: unknown,
    });
  }
}

export async function listSubQueues(deps: QueueDeps, caller: Caller, qid: string) {
  const { access } = await requireQueueReader(deps.db, caller, await findQueue(deps.db, qid));
  return (await listSubQueueRows(deps.db, qid)).map((row) => subQueueJson(row, access));
}

export async function getSubQueue(deps: QueueDeps, caller: Caller, qid: string, id: string) {
  const { access } = await requireQueueReader(deps.db, caller, await findQueue(deps.db, qid));
  const row = await findSubQueue(deps.db, qid, id);
  if (!row) throw new AppError('not_found', 'No such sub-queue.');
  return subQueueJson(row, access);
}

export async function createSubQueue(
  deps: QueueDeps,
  caller: Caller,
  qid: string,
  body: CreateSubQueueBody,
): Promise<SubQueue> {
  const queue = await requireQueueManager(deps.db, caller, await findQueue(deps.db, qid));
  await assertStaff(deps.db, queue.companyId, body.staffUserIds);
  const now = deps.clock();
  const id = await deps.db.transaction(async (tx) => {
    const id = await insertSubQueue(tx, {
      queueId: qid,
      name: body.name,
      createdAt: now,
      updatedAt: now,
    });
    await replaceSubQueueStaff(tx, id, [...new Set(body.staffUserIds ?? [])]);
    return id;
  });
  return getSubQueue(deps, caller, qid, id);
}

export async function updateSubQueue(
  deps: QueueDeps,
  caller: Caller,
  qid: string,
  id: string,
  body: UpdateSubQueueBody,
): Promise<SubQueue> {
  const queue = await requireQueueManager(deps.db, caller, await findQueue(deps.db, qid));
  if (!(await findSubQueue(deps.db, qid, id))) {
    throw new AppError('not_found', 'No such sub-queue.');
  }
  await assertStaff(deps.db, queue.companyId, body.staffUserIds);
  await deps.db.transaction(async (tx) => {
    await updateSubQueueRow(tx, id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      updatedAt: deps.clock(),
    });
    if (body.staffUserIds) await replaceSubQueueStaff(tx, id, [...new Set(body.staffUserIds)]);
  });
  return getSubQueue(deps, caller, qid, id);
}

/** Sessions of a deleted sub-queue stay, without a sub-queue (the FK sets null). */
export async function deleteSubQueue(deps: QueueDeps, caller: Caller, qid: string, id: string) {
  await requireQueueManager(deps.db, caller, await findQueue(deps.db, qid));
  if (!(await deleteSubQueueRow(deps.db, qid, id))) {
    throw new AppError('not_found', 'No such sub-queue.');
  }
}

// Service types ------------------------------------------------------------------------------

/** Visitors see active service types; members all of them. */
export async function listServiceTypes(deps: QueueDeps, caller: Caller, qid: string) {
  const { access } = await requireQueueReader(deps.db, caller, await findQueue(deps.db, qid));
  return (await listServiceTypeRows(deps.db, qid, access !== 'member')).map(serviceTypeJson);
}

export async function getServiceType(deps: QueueDeps, caller: Caller, qid: string, id: string) {
  const { access } = await requireQueueReader(deps.db, caller, await findQueue(deps.db, qid));
  const row = await findServiceType(deps.db, qid, id);
  if (!row || (access !== 'member' && !row.active)) {
    throw new AppError('not_found', 'No such service type.');
  }
  return serviceTypeJson(row);
}

export async function createServiceType(
  deps: QueueDeps,
  caller: Caller,
  qid: string,
  body: CreateServiceTypeBody,
): Promise<ServiceType> {
  await requireQueueManager(deps.db, caller, await findQueue(deps.db, qid));
  const now = deps.clock();
  return serviceTypeJson(
    await insertServiceType(deps.db, { ...body, queueId: qid, createdAt: now, updatedAt: now }),
  );
}

export async function updateServiceType(
  deps: QueueDeps,
  caller: Caller,
  qid: string,
  id: string,
  body: UpdateServiceTypeBody,
): Promise<ServiceType> {
  await requireQueueManager(deps.db, caller, await findQueue(deps.db, qid));
  const row = await updateServiceTypeRow(deps.db, qid, id, { ...body, updatedAt: deps.clock() });
  if (!row) throw new AppError('not_found', 'No such service type.');
  return serviceTypeJson(row);
}

/** A service type sessions already offer cannot be deleted; deactivate it instead. */
export async function deleteServiceType(deps: QueueDeps, caller: Caller, qid: string, id: string) {
  await requireQueueManager(deps.db, caller, await findQueue(deps.db, qid));
  let deleted: boolean;
  try {
    deleted = await deleteServiceTypeRow(deps.db, qid, id);
  } catch (error) {
    const code = (error as { code?: string; cause?: { code?: string } }).cause?.code;
    if ((error as { code?: string }).code === '23503' || code === '23503') {
      throw new AppError(
        'in_use',
        'Sessions offer this service type; set it inactive instead of deleting it.',
      );
    }
    throw error;
  }
  if (!deleted) throw new AppError('not_found', 'No such service type.');
}

// Service areas ------------------------------------------------------------------------------

export async function listServiceAreas(deps: QueueDeps, caller: Caller, queueId: string) {
  await requireQueueReader(deps.db, caller, await findQueue(deps.db, queueId));
  return (await listServiceAreaRows(deps.db, queueId)).map(serviceAreaJson);
}

export async function getServiceArea(deps: QueueDeps, caller: Caller, queueId: string, id: string) {
  await requireQueueReader(deps.db, caller, await findQueue(deps.db, queueId));
  const row = await findServiceArea(deps.db, queueId, id);
  if (!row) throw new AppError('not_found', 'No such service area.');
  return serviceAreaJson(row);
}

export async function createServiceArea(
  deps: QueueDeps,
  caller: Caller,
  queueId: string,
  body: CreateServiceAreaBody,
): Promise<ServiceArea> {
  await requireQueueManager(deps.db, caller, await findQueue(deps.db, queueId));
  const now = deps.clock();
  return serviceAreaJson(
    await insertServiceArea(deps.db, { ...body, queueId, createdAt: now, updatedAt: now }),
  );
}

export async function updateServiceArea(
  deps: QueueDeps,
  caller: Caller,
  queueId: string,
  id: string,
  body: UpdateServiceAreaBody,
): Promise<ServiceArea> {
  await requireQueueManager(deps.db, caller, await findQueue(deps.db, queueId));
  const row = await updateServiceAreaRow(deps.db, queueId, id, {
    ...body,
    updatedAt: deps.clock(),
  });
  if (!row) throw new AppError('not_found', 'No such service area.');
  return serviceAreaJson(row);
}

export async function deleteServiceArea(
  deps: QueueDeps,
  caller: Caller,
  queueId: string,
  id: string,
) {
  await requireQueueManager(deps.db, caller, await findQueue(deps.db, queueId));
  if (!(await deleteServiceAreaRow(deps.db, queueId, id))) {
    throw new AppError('not_found', 'No such service area.');
  }
}
