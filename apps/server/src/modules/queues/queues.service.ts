import { randomInt } from 'node:crypto';
import type { CreateQueueBody, Queue, UpdateQueueBody } from '@upnext/contract/queues';
import type { Db, Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/refusals.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { iso } from '../../lib/rows.ts';
import { notFoundError } from '../access/access.ts';
import type { Caller } from '../access/caller.ts';
import { assertWithinPlan } from '../billing/billing.service.ts';
import { findCompany } from '../companies/companies.repository.ts';
import {
  canManageQueues,
  queueAccess,
  readableQueues,
  requireQueueManager,
  requireQueueReader,
  seesAllQueues,
} from './queues.policy.ts';
import {
  findQueue,
  findQueueByCode,
  insertQueue,
  listQueues as listQueueRows,
  type QueueWithCompany,
  updateQueueRow,
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

function queueJson(row: QueueWithCompany): Queue {
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
    cancelNoticeMinutes: row.cancelNoticeMinutes,
    refundPercent: row.refundPercent,
    changeCutoffMinutes: row.changeCutoffMinutes,
    intakeQuestions: row.intakeQuestions,
    tokensPerVisitor: row.tokensPerVisitor,
    turnApproachingThreshold: row.turnApproachingThreshold,
    status: row.status,
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
  if (!queue) throw notFoundError.queue();
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
  const rows = await listQueueRows(deps.db, { companyId: query.companyId, status: 'active' });
  // Unlisted queues are reached by their link only; of the rest, the access rule decides.
  const listed = rows.filter((queue) => queue.visibility !== 'unlisted');
  return (await readableQueues(deps.db, caller, listed)).map(queueJson);
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
    deps.db.transaction(async (tx) => {
      await assertPlanAllows(tx, companyId, NOTHING, { ...fields, status: 'active' }, now);
      return insertQueue(tx, { ...fields, companyId, joinCode, createdAt: now, updatedAt: now });
    }),
  );
  return queueJson(await loadQueue(deps.db, id));
}

type PlanFacts = { status?: 'active' | 'archived'; priceMinor?: number | null; online?: boolean };
const NOTHING: PlanFacts = { status: 'archived', priceMinor: null, online: false };

/**
 * What a queue's change asks of the company's plan: another active queue, another paid one,
 * or video. Only what the queue gains counts, so a queue a lapsed plan no longer covers keeps
 * working and can still be edited.
 */
async function assertPlanAllows(
  tx: Tx,
  companyId: string,
  before: PlanFacts,
  after: PlanFacts,
  now: Date,
) {
  if (after.status !== 'active') return;
  const was = before.status === 'active';
  if (!was) await assertWithinPlan(tx, companyId, 'queues', 1, now);
  const paid = (facts: PlanFacts) => facts.priceMinor !== null && facts.priceMinor !== undefined;
  if (paid(after) && !(was && paid(before))) {
    await assertWithinPlan(tx, companyId, 'paid_queues', 1, now);
  }
  if (after.online && !(was && before.online)) {
    await assertWithinPlan(tx, companyId, 'video', null, now);
  }
}

export async function getQueue(deps: QueueDeps, caller: Caller, queueId: string): Promise<Queue> {
  const { queue } = await requireQueueReader(deps.db, caller, await findQueue(deps.db, queueId));
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
  queueId: string,
  body: UpdateQueueBody,
): Promise<Queue> {
  const queue = await requireQueueManager(deps.db, caller, await findQueue(deps.db, queueId));
  const { regenerateJoinCode, ...fields } = body;
  const price = fields.priceMinor !== undefined ? fields.priceMinor : queue.priceMinor;
  const currency = fields.currency !== undefined ? fields.currency : queue.currency;
  if ((price === null) !== (currency === null)) throw priceUnpaired();
  const now = deps.clock();
  const values = { ...fields, updatedAt: now };
  const save = (joinCode?: string) =>
    deps.db.transaction(async (tx) => {
      await assertPlanAllows(tx, queue.companyId, queue, { ...queue, ...fields }, now);
      await updateQueueRow(tx, queueId, joinCode ? { ...values, joinCode } : values);
    });
  if (regenerateJoinCode) await withFreshCode(save);
  else await save();
  return queueJson(await loadQueue(deps.db, queueId));
}

/** DELETE archives: sessions and tokens keep their queue; `PATCH status: active` restores. */
export async function archiveQueue(
  deps: QueueDeps,
  caller: Caller,
  queueId: string,
): Promise<Queue> {
  await requireQueueManager(deps.db, caller, await findQueue(deps.db, queueId));
  await updateQueueRow(deps.db, queueId, { status: 'archived', updatedAt: deps.clock() });
  return queueJson(await loadQueue(deps.db, queueId));
}
