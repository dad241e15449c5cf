import type { Db } from '../../db/client.ts';
import { authorize, signedInOf } from '../access/access.ts';
import type { Caller, SignedInCaller } from '../access/caller.ts';

/**
 * A user's roles record: their own, or that of an active member of a company the caller
 * administers (owner or admin, active). Anyone else gets 403, whether or not the address exists.
 */
export async function canReadUserData(
  db: Db,
  caller: Caller,
  targetUserId: string | undefined,
): Promise<SignedInCaller> {
  // An unknown address is refused like someone else's record.
  const userId = targetUserId ?? crypto.randomUUID();
  return signedInOf(await authorize(db, caller, 'user.read_data', { kind: 'user', userId }));
}

/** The own profile only. */
export const canUpdateProfile = async (db: Db, caller: Caller) =>
  signedInOf(
    await authorize(db, caller, 'user.update_profile', {
      kind: 'user',
      userId: caller.kind === 'user' ? caller.userId : '',
    }),
  );

/** One's own invitations only: listed, accepted or declined by their invitee. */
export const canAnswerInvitations = async (db: Db, caller: Caller) =>
  signedInOf(
    await authorize(db, caller, 'user.answer_invitations', {
      kind: 'user',
      userId: caller.kind === 'user' ? caller.userId : '',
    }),
  );
