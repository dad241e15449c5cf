import type { Db, Tx } from '../../db/client.ts';
import type { Caller, SignedInCaller } from '../../http/caller.ts';
import { AppError } from '../../lib/errors.ts';
import { activeRoleIn } from '../companies/membership.repository.ts';
import { hasApprovedRequest } from '../queues/queues.repository.ts';
import type { SessionContext, TokenRow } from './tokens.repository.ts';

/** Staff of the session's company (any role) run its live queue and see its visitors. */
export async function isCompanyMember(db: Db | Tx, caller: Caller, companyId: string) {
  if (caller.kind !== 'user') return false;
  return (await activeRoleIn(db, companyId, caller.userId)) !== undefined;
}

export async function requireStaff(
  db: Db | Tx,
  caller: Caller,
  session: SessionContext,
): Promise<SignedInCaller> {
  if (caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to continue.');
  if (!(await isCompanyMember(db, caller, session.companyId))) {
    throw new AppError('forbidden', 'Only the staff of this company can do this.');
  }
  return caller;
}

/**
 * Visitors may join sessions of active public or unlisted queues, and of private ones once
 * their join request was approved; staff of the company always may.
 */
export async function requireJoinable(
  db: Db | Tx,
  caller: SignedInCaller,
  session: SessionContext,
): Promise<{ staff: boolean }> {
  const staff = await isCompanyMember(db, caller, session.companyId);
  if (staff) return { staff };
  const approved =
    session.visibility === 'private' &&
    (await hasApprovedRequest(db, session.queueId, caller.userId));
  if (session.queueStatus !== 'active' || (session.visibility === 'private' && !approved)) {
    // Indistinguishable from a session that does not exist: nothing leaks about it.
    throw new AppError('session_not_found', 'This session does not exist.');
  }
  return { staff };
}

/** The holder or the company's staff; anyone else learns nothing about the token. */
export async function requireHolderOrStaff(
  db: Db | Tx,
  caller: Caller,
  token: TokenRow,
  session: SessionContext,
): Promise<{ staff: boolean; holder: boolean }> {
  if (caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to continue.');
  const staff = await isCompanyMember(db, caller, session.companyId);
  const holder = token.userId === caller.userId;
  if (holder || staff) return { staff, holder };
  throw new AppError('token_not_found', 'This token does not exist.');
}
