import type { Db } from '../../db/client.ts';
import { type Caller, requireUser, type SignedInCaller } from '../../http/caller.ts';
import { AppError } from '../../lib/errors.ts';
import { administersUser } from './users.repository.ts';

/**
 * A user's roles record: their own, or a member's of a company the caller administers
 * (owner or admin, active). Anyone else gets 403, whether or not the address exists.
 */
export async function canReadUserData(
  db: Db,
  caller: Caller,
  targetUserId: string | undefined,
): Promise<SignedInCaller> {
  const user = requireUser(caller);
  if (targetUserId === user.userId) return user;
  if (targetUserId && (await administersUser(db, user.userId, targetUserId))) return user;
  throw new AppError('forbidden', 'You may only read your own roles record.');
}

/** The own profile only. */
export const canUpdateProfile = (caller: Caller) => requireUser(caller);
