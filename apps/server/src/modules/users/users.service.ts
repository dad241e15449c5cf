import type { Invitation, UpdateProfileBody, UserData } from '@upnext/contract/users';
import { findUserByEmail, normaliseEmail } from '../../auth/users.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../access/caller.ts';
import { canAnswerInvitations, canReadUserData, canUpdateProfile } from './users.policy.ts';
import {
  acceptInvitationRow,
  deleteInvitationRow,
  ensureProfile,
  findAuthUser,
  membershipsWithCompanies,
  pendingInvitationsOf,
  updateProfileRow,
} from './users.repository.ts';

export type UserDeps = { db: Db; clock: Clock };

async function userData(db: Db, userId: string): Promise<UserData> {
  const user = await findAuthUser(db, userId);
  if (!user) throw new AppError('not_found', 'No such user.');
  const profile = await ensureProfile(db, userId);
  return {
    userId,
    email: user.email,
    phone: user.phone,
    displayName: profile.displayName,
    avatarUrl: profile.avatarUrl,
    timezone: profile.timezone,
    subscribeId: profile.subscribeId,
    companies: await membershipsWithCompanies(db, userId),
  };
}

/**
 * `GET /user/user-data?userId=<email>`: one's own record, or an active member's of a company
 * the caller administers. Reading it changes nothing: invitations are accepted explicitly.
 */
export async function getUserData(
  deps: UserDeps,
  caller: Caller,
  email: string | undefined,
): Promise<UserData> {
  let targetId: string | undefined;
  if (caller.kind === 'user') {
    const own = email === undefined || normaliseEmail(email) === (caller.email ?? '');
    targetId = own ? caller.userId : (await findUserByEmail(deps.db, email))?.id;
  }
  const user = await canReadUserData(deps.db, caller, targetId);
  return userData(deps.db, targetId ?? user.userId);
}

const invitationNotFound = () =>
  new AppError('invitation_not_found', 'There is no pending invitation from this company.');

/** `GET /user/invitations`: the caller's pending invitations. */
export async function listInvitations(deps: UserDeps, caller: Caller): Promise<Invitation[]> {
  const user = await canAnswerInvitations(deps.db, caller);
  const rows = await pendingInvitationsOf(deps.db, user.userId);
  return rows.map((row) => ({ ...row, invitedAt: row.invitedAt.toISOString() }));
}

/** `POST /user/invitations/{companyId}/accept`: the membership becomes active. */
export async function acceptInvitation(
  deps: UserDeps,
  caller: Caller,
  companyId: string,
): Promise<UserData> {
  const user = await canAnswerInvitations(deps.db, caller);
  if (!(await acceptInvitationRow(deps.db, companyId, user.userId, deps.clock()))) {
    throw invitationNotFound();
  }
  return userData(deps.db, user.userId);
}

/** `POST /user/invitations/{companyId}/decline`: the invitation goes; the rest remain. */
export async function declineInvitation(
  deps: UserDeps,
  caller: Caller,
  companyId: string,
): Promise<Invitation[]> {
  const user = await canAnswerInvitations(deps.db, caller);
  if (!(await deleteInvitationRow(deps.db, companyId, user.userId))) throw invitationNotFound();
  return listInvitations(deps, caller);
}

export async function updateProfile(
  deps: UserDeps,
  caller: Caller,
  body: UpdateProfileBody,
): Promise<UserData> {
  const user = await canUpdateProfile(deps.db, caller);
  await ensureProfile(deps.db, user.userId);
  await updateProfileRow(deps.db, user.userId, {
    ...(body.displayName !== undefined ? { displayName: body.displayName } : {}),
    ...(body.avatarUrl !== undefined ? { avatarUrl: body.avatarUrl } : {}),
    ...(body.timezone !== undefined ? { timezone: body.timezone } : {}),
    updatedAt: deps.clock(),
  });
  return userData(deps.db, user.userId);
}
