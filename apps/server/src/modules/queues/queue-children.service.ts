import type {
  QueueChildTypes,
  serviceAreaParts,
  serviceTypeParts,
  subQueueParts,
} from '@upnext/contract/queues';
import type { SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { isForeignKeyViolation } from '../../db/refusals.ts';
import { AppError } from '../../lib/errors.ts';
import { requirePhone } from '../../lib/phone.ts';
import { iso } from '../../lib/rows.ts';
import type { Caller } from '../access/caller.ts';
import { assertWithinPlan } from '../billing/billing.service.ts';
import {
  activeServiceTypes,
  type ChildRows,
  replaceSubQueueStaff,
  type ServiceAreaRow,
  type ServiceTypeRow,
  type SubQueueRow,
  serviceAreaRows,
  serviceTypeRows,
  subQueueRows,
} from './queue-children.repository.ts';
import { requireQueueManager, requireQueueReader } from './queues.policy.ts';
import { findQueue, nonMembers, type QueueWithCompany } from './queues.repository.ts';
import type { QueueDeps } from './queues.service.ts';

type Access = 'member' | 'visitor';

type Types = { item: unknown; create: object; update: object };

/** What one kind of a queue's parts adds to the common pattern; the rest is `queueChild`. */
interface ChildKind<Row, T extends Types> {
  /** Said in `not_found`: "No such <noun>." */
  noun: string;
  rows: ChildRows<Row, object>;
  json(row: Row, access: Access): T['item'];
  /** Rows a visitor may not see (members see all). */
  hiddenFromVisitors?: { where: SQL; row(row: Row): boolean };
  /** Writes with more than the row itself (a sub-queue's staff): inside one transaction. */
  write?: {
    check?(db: Db, queue: QueueWithCompany, body: T['create'] | T['update']): Promise<void>;
    /** The row's own columns of a body (the rest is written by `after`). */
    columns(body: T['create'] | T['update'], queue: QueueWithCompany): object;
    after?(tx: Tx, id: string, body: T['create'] | T['update']): Promise<void>;
  };
  /** Asks the company's plan, inside the write's transaction, for what the write adds. */
  plan?(
    tx: Tx,
    queue: QueueWithCompany,
    before: Row | undefined,
    body: T['create'] | T['update'],
    now: Date,
  ): Promise<void>;
  /** Turns a database refusal of a delete into a clear error (rows still in use). */
  deleteRefused?(error: unknown): AppError | undefined;
}

/**
 * The one pattern every part of a queue follows: read when the caller may see the queue
 * (visitors see what `hiddenFromVisitors` leaves), write when they manage it; ids of
 * another queue are `not_found`.
 */
function queueChild<Row, T extends Types>(kind: ChildKind<Row, T>) {
  const notFound = () => new AppError('not_found', `No such ${kind.noun}.`);
  const reader = async (deps: QueueDeps, caller: Caller, queueId: string) =>
    (await requireQueueReader(deps.db, caller, await findQueue(deps.db, queueId))).access;
  const manager = async (deps: QueueDeps, caller: Caller, queueId: string) =>
    requireQueueManager(deps.db, caller, await findQueue(deps.db, queueId));
  const columns = (body: T['create'] | T['update'], queue: QueueWithCompany) =>
    kind.write?.columns(body, queue) ?? body;
  const visible = (row: Row | undefined, access: Access): row is Row =>
    row !== undefined &&
    (access === 'member' || !kind.hiddenFromVisitors || kind.hiddenFromVisitors.row(row));

  async function get(
    deps: QueueDeps,
    caller: Caller,
    queueId: string,
    id: string,
  ): Promise<T['item']> {
    const access = await reader(deps, caller, queueId);
    const row = await kind.rows.find(deps.db, queueId, id);
    if (!visible(row, access)) throw notFound();
    return kind.json(row, access);
  }

  /** Create (`id` null) or change one part, its extra writes (`after`) in the same transaction. */
  async function save(
    deps: QueueDeps,
    caller: Caller,
    queueId: string,
    id: string | null,
    body: T['create'] | T['update'],
  ): Promise<T['item']> {
    const queue = await manager(deps, caller, queueId);
    const before = id === null ? undefined : await kind.rows.find(deps.db, queueId, id);
    if (id !== null && !before) throw notFound();
    await kind.write?.check?.(deps.db, queue, body);
    const now = deps.clock();
    const savedId = await deps.db.transaction(async (tx) => {
      await kind.plan?.(tx, queue, before, body, now);
      let saved = id;
      if (saved === null) {
        saved = await kind.rows.insert(tx, {
          ...columns(body, queue),
          queueId,
          createdAt: now,
          updatedAt: now,
        });
      } else {
        await kind.rows.update(tx, queueId, saved, { ...columns(body, queue), updatedAt: now });
      }
      await kind.write?.after?.(tx, saved, body);
      return saved;
    });
    return get(deps, caller, queueId, savedId);
  }

  return {
    async list(deps: QueueDeps, caller: Caller, queueId: string): Promise<T['item'][]> {
      const access = await reader(deps, caller, queueId);
      const where = access === 'member' ? undefined : kind.hiddenFromVisitors?.where;
      return (await kind.rows.list(deps.db, queueId, where)).map((row) => kind.json(row, access));
    },
    get,
    create: (deps: QueueDeps, caller: Caller, queueId: string, body: T['create']) =>
      save(deps, caller, queueId, null, body),
    update: (deps: QueueDeps, caller: Caller, queueId: string, id: string, body: T['update']) =>
      save(deps, caller, queueId, id, body),
    async remove(deps: QueueDeps, caller: Caller, queueId: string, id: string): Promise<void> {
      await manager(deps, caller, queueId);
      let deleted: boolean;
      try {
        deleted = await kind.rows.remove(deps.db, queueId, id);
      } catch (error) {
        throw kind.deleteRefused?.(error) ?? error;
      }
      if (!deleted) throw notFound();
    },
  };
}

/** A part's row is its API shape, its times as ISO strings (the response schema drops any other column). */
function isoTimes<Row extends { createdAt: Date; updatedAt: Date }>(row: Row) {
  return { ...row, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) };
}

/** Only members of the company may be assigned to serve a sub-queue. */
async function assertStaff(db: Db, queue: QueueWithCompany, body: { staffUserIds?: string[] }) {
  if (!body.staffUserIds) return;
  const unknown = await nonMembers(db, queue.companyId, [...new Set(body.staffUserIds)]);
  if (unknown.length > 0) {
    throw new AppError('validation_failed', 'Only members of the company can be assigned.', {
      issues: [{ field: 'body.staffUserIds', message: 'Not members of this company' }],
      userIds: unknown,
    });
  }
}

/** Deleting a sub-queue keeps its sessions (their sub-queue becomes null). */
export const subQueues = queueChild<SubQueueRow, QueueChildTypes<typeof subQueueParts>>({
  noun: 'sub-queue',
  rows: subQueueRows,
  // Who serves a sub-queue is for the company's members; visitors see an empty list.
  json: (row, access) => ({
    ...isoTimes(row),
    staffUserIds: access === 'member' ? row.staffUserIds : [],
  }),
  write: {
    check: assertStaff,
    columns: ({ staffUserIds: _, ...columns }) => columns,
    after: async (tx, id, body) => {
      if (body.staffUserIds) await replaceSubQueueStaff(tx, id, [...new Set(body.staffUserIds)]);
    },
  },
});

/** Visitors see active service types; one that sessions offer is deactivated, not deleted. */
export const serviceTypes = queueChild<ServiceTypeRow, QueueChildTypes<typeof serviceTypeParts>>({
  noun: 'service type',
  rows: serviceTypeRows,
  json: isoTimes,
  hiddenFromVisitors: { where: activeServiceTypes, row: (row) => row.active },
  // A price is an online payment: a plan without them refuses a service type gaining one.
  plan: async (tx, queue, before, body, now) => {
    const priced = (price: number | null | undefined) => (price ?? 0) > 0;
    if (priced(body.priceMinor) && !priced(before?.priceMinor)) {
      await assertWithinPlan(tx, queue.companyId, 'paid_queues', 1, now);
    }
  },
  deleteRefused: (error) =>
    isForeignKeyViolation(error)
      ? new AppError(
          'in_use',
          'Sessions offer this service type; set it inactive instead of deleting it.',
        )
      : undefined,
});

/** A branch's phone is stored in E.164, read in the company's country. */
export const serviceAreas = queueChild<ServiceAreaRow, QueueChildTypes<typeof serviceAreaParts>>({
  noun: 'service area',
  rows: serviceAreaRows,
  json: isoTimes,
  write: {
    columns: (body, queue) =>
      body.phone
        ? { ...body, phone: requirePhone(body.phone, queue.company.country, 'body.phone') }
        : body,
  },
});
