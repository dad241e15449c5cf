import type { Db } from '../../db/client.ts';
import { type Caller, requireUser, type SignedInCaller } from '../../http/caller.ts';
import { AppError } from '../../lib/errors.ts';
import { managers, requireCompanyRole } from '../companies/membership.policy.ts';
import type { JoinRequestRow } from './requests.repository.ts';

/** Asking to join, and listing or withdrawing one's own requests: any signed-in user. */
export const canRequestToJoin = (caller: Caller): SignedInCaller => requireUser(caller);

/** Listing a queue's requests and deciding them: owners and admins of its company. */
export const canDecideRequests = (db: Db, caller: Caller, companyId: string) =>
  requireCompanyRole(db, caller, companyId, managers);

/** Only the requester withdraws; others learn nothing about the request. */
export function requireRequester(caller: Caller, request: JoinRequestRow | undefined) {
  const user = requireUser(caller);
  if (!request || request.userId !== user.userId) {
    throw new AppError('not_found', 'No such request.');
  }
  return request;
}
