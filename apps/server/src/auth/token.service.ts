import type { AuthContext, RequestInfo } from './context.ts';
import { errors } from './errors.ts';
import { burnPasswordCheck, checkPassword, hashPassword } from './passwords.ts';
import { assertPhoneEnabled, findUserByPhone, normalisePhone } from './phone.ts';
import { signInFailures } from './rate-limit.ts';
import { refreshSession, type SessionJson, startSession } from './sessions.service.ts';
import { updateUser } from './users.repository.ts';
import { findUserByEmail, isBanned, normaliseEmail } from './users.ts';

export type PasswordSignIn = {
  email?: string | null | undefined;
  phone?: string | null | undefined;
  password?: string | null | undefined;
};

/**
 * grant_type=password: an email or phone and its password. Unknown accounts cost the same
 * hashing time as known ones, and failures per account and IP are limited.
 */
export async function passwordGrant(ctx: AuthContext, body: PasswordSignIn, info: RequestInfo) {
  if (!body.password || (!body.email && !body.phone)) {
    throw errors.validation('You must provide either an email or phone number and a password');
  }
  if (!body.email) assertPhoneEnabled(ctx);
  const phone = body.email ? undefined : normalisePhone(body.phone ?? '');
  const account = body.email ? normaliseEmail(body.email) : `phone:${phone}`;
  const failures = signInFailures(ctx, account, info.ip);
  await failures.assertUnder();
  const user = phone
    ? await findUserByPhone(ctx.db, phone)
    : await findUserByEmail(ctx.db, account);
  if (!user?.encryptedPassword) {
    await burnPasswordCheck(body.password);
    await failures.count();
    throw errors.invalidCredentials();
  }
  const check = await checkPassword(body.password, user.encryptedPassword);
  if (!check.ok) {
    await failures.count();
    throw errors.invalidCredentials();
  }
  if (isBanned(user, ctx.clock())) throw errors.userBanned();
  if (body.email && !user.emailConfirmedAt) throw errors.emailNotConfirmed();
  if (!body.email && !user.phoneConfirmedAt) throw errors.phoneNotConfirmed();
  const rehashed = check.needsRehash ? await hashPassword(body.password) : undefined;
  const session = await ctx.db.transaction(async (tx) => {
    // An imported bcrypt hash becomes argon2id on its first successful use.
    if (rehashed) await updateUser(tx, user.id, { encryptedPassword: rehashed });
    return startSession(ctx, tx, user, 'password', info);
  });
  return withWeakPasswordNotice(ctx, session, body.password);
}

/** grant_type=refresh_token: the rotation rules are the session's (sessions.service.ts). */
export async function refreshGrant(
  ctx: AuthContext,
  body: { refresh_token?: string | null | undefined },
  info: RequestInfo,
) {
  if (!body.refresh_token) throw errors.validation('refresh_token required');
  return refreshSession(ctx, body.refresh_token, info);
}

/** GoTrue signs in a password below today's policy, and says so. */
function withWeakPasswordNotice(ctx: AuthContext, session: SessionJson, password: string) {
  if (password.length >= ctx.auth.passwordMinLength) return session;
  return {
    ...session,
    weak_password: {
      reasons: ['length'],
      message: `Password should be at least ${ctx.auth.passwordMinLength} characters.`,
    },
  };
}
