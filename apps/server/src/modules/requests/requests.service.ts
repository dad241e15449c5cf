import type {
  CreateJoinRequestBody,
  JoinRequest,
  JoinRequestStatus,
} from '@upnext/contract/requests';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { iso } from '../../lib/rows.ts';
import { notFoundError } from '../access/access.ts';
import type { Caller } from '../access/caller.ts';
import { findQueue } from '../queues/queues.repository.ts';
import {
  canDecideRequests,
  canRequestToJoin,
  needsNoRequest,
  requireRequester,
} from './requests.policy.ts';
import {
  decideRequestRow,
  deleteRequestRow,
  findRequest,
  findRequestOf,
  type JoinRequestRow,
  listRequests,
  upsertRequest,
} from './requests.repository.ts';

export type RequestDeps = { db: Db; clock: Clock };

function requestJson(row: JoinRequestRow): JoinRequest {
  return {
    id: row.id,
    queueId: row.queueId,
    queueName: row.queueName,
    userId: row.userId,
    email: row.email,
    displayName: row.displayName,
    message: row.message,
    status: row.status,
    decidedBy: row.decidedBy,
    decidedAt: iso(row.decidedAt),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/**
 * Ask to join a private, active queue. Asking again while pending or approved returns the
 * request unchanged; after a rejection it is pending again with the new message.
 */
export async function createRequest(
  deps: RequestDeps,
  caller: Caller,
  body: CreateJoinRequestBody,
): Promise<{ request: JoinRequest; created: boolean }> {
  const user = await canRequestToJoin(deps.db, caller);
  const queue = await findQueue(deps.db, body.queueId);
  if (queue?.status !== 'active') throw notFoundError.queue();
  if (queue.visibility !== 'private') {
    throw new AppError('join_request_not_needed', 'Anyone may join this queue; no request needed.');
  }
  if (await needsNoRequest(deps.db, caller, queue.companyId)) {
    throw new AppError('join_request_not_needed', 'Members of the company need no request.');
  }
  const { created } = await upsertRequest(deps.db, {
    queueId: queue.id,
    userId: user.userId,
    message: body.message ?? '',
    now: deps.clock(),
  });
  const row = await findRequestOf(deps.db, queue.id, user.userId);
  if (!row) throw new Error('request vanished');
  return { request: requestJson(row), created };
}

/** With a queue: its requests (owner, admin). Without: the caller's own. */
export async function listJoinRequests(
  deps: RequestDeps,
  caller: Caller,
  query: { queueId?: string; status?: JoinRequestStatus },
): Promise<JoinRequest[]> {
  const user = await canRequestToJoin(deps.db, caller);
  if (!query.queueId) {
    return (await listRequests(deps.db, { userId: user.userId, status: query.status })).map(
      requestJson,
    );
  }
  const queue = await findQueue(deps.db, query.queueId);
  if (!queue) throw notFoundError.queue();
  await canDecideRequests(deps.db, caller, queue.companyId);
  return (await listRequests(deps.db, query)).map(requestJson);
}

/** Managers may change their mind: rejecting an approved request revokes access. */
export async function decideRequest(
  deps: RequestDeps,
  caller: Caller,
  id: string,
  status: 'approved' | 'rejected',
): Promise<JoinRequest> {
  const user = await canRequestToJoin(deps.db, caller);
  const request = await findRequest(deps.db, id);
  if (!request) throw new AppError('not_found', 'No such request.');
  await canDecideRequests(deps.db, caller, request.companyId);
  await decideRequestRow(deps.db, id, { status, decidedBy: user.userId, now: deps.clock() });
  const row = await findRequest(deps.db, id);
  if (!row) throw new AppError('not_found', 'No such request.');
  return requestJson(row);
}

export async function withdrawRequest(deps: RequestDeps, caller: Caller, id: string) {
  await requireRequester(deps.db, caller, await findRequest(deps.db, id));
  await deleteRequestRow(deps.db, id);
}
