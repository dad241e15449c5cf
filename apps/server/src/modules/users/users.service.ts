import type { UpdateProfileBody, UserData } from '@upnext/contract/users';
import { findUserByEmail, normaliseEmail } from '../../auth/users.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../access/caller.ts';
import { activateInvitations } from '../companies/companies.repository.ts';
import { canReadUserData, canUpdateProfile } from './users.policy.ts';
import {
  ensureProfile,
  findAuthUser,
  membershipsWithCompanies,
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
 * `GET /user/user-data?userId=<email>`. Reading one's own record is also how a signed-in
 * user accepts pending invites: the web fetches it right after every sign-in, and invited
 * memberships become active then.
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
  if (targetId === user.userId) await activateInvitations(deps.db, user.userId, deps.clock());
  return userData(deps.db, targetId ?? user.userId);
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
