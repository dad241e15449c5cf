import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { authorize, may, signedInOf, standingOf } from '../access/access.ts';
import { type Caller, requireUser, type SignedInCaller } from '../access/caller.ts';
import type { JoinRequestRow } from './requests.repository.ts';

/** Asking to join, and listing one's own requests: any signed-in user. */
export const canRequestToJoin = async (db: Db, caller: Caller): Promise<SignedInCaller> =>
  signedInOf(await authorize(db, caller, 'request.create', { kind: 'anything' }));

/** Members of the company need no request: they see all its queues. */
export const needsNoRequest = async (db: Db, caller: Caller, companyId: string) =>
  may(await standingOf(db, caller, { kind: 'company', companyId }), 'queue.list_all');

/** Listing a queue's requests and deciding them: owners and admins of its company. */
export const canDecideRequests = (db: Db, caller: Caller, companyId: string) =>
  authorize(db, caller, 'request.decide', { kind: 'company', companyId });

/** Only the requester withdraws; others learn nothing about the request. */
export async function requireRequester(
  db: Db,
  caller: Caller,
  request: JoinRequestRow | undefined,
): Promise<JoinRequestRow> {
  if (!request) {
    requireUser(caller);
    throw new AppError('not_found', 'No such request.');
  }
  await authorize(db, caller, 'request.withdraw', {
    kind: 'request',
    companyId: request.companyId,
    requesterId: request.userId,
  });
  return request;
}
