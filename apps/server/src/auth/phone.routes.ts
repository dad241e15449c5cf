import { eq } from 'drizzle-orm';
import { isUniqueViolation } from '../db/refusals.ts';
import { authUsers } from '../db/schema/auth.ts';
import { type AuditAction, audit } from './audit.ts';
import type { AuthContext, RequestInfo } from './context.ts';
import { AuthError, errors } from './errors.ts';
import { consumeCodeOf, issueToken } from './one-time-tokens.ts';
import { assertPasswordAcceptable, hashPassword } from './passwords.ts';
import {
  applyPhoneChange,
  assertPhoneEnabled,
  assertSmsChannel,
  claimSmsSlot,
  confirmPhone,
  findUserByPendingPhone,
  findUserByPhone,
  parsePhone,
  sendAuthSms,
} from './phone.ts';
import { type SessionJson, startSession } from './sessions.ts';
import { createUser } from './users.service.ts';
import {
  fakeUserJson,
  findUserById,
  identitiesOf,
  isBanned,
  type UserRow,
  userJson,
} from './users.ts';

/**
 * The phone halves of /signup, /otp, /verify, /resend and PUT /user (GoTrue's behaviour with an
 * SMS provider), called by those routes when the body names a phone. Codes go out by SMS only.
 */

const smsTokenTypes = ['confirmation_token', 'magiclink_token'] as const;

/** Issues a code of `tokenType` for `phone` in its own transaction and texts it. */
async function issueAndText(
  ctx: AuthContext,
  info: RequestInfo,
  user: UserRow,
  tokenType: 'confirmation_token' | 'magiclink_token' | 'phone_change_token',
  phone: string,
  action: AuditAction,
): Promise<void> {
  const { code } = await ctx.db.transaction(async (tx) => {
    const issued = await issueToken(ctx, tx, user, tokenType, phone, ctx.auth.siteUrl, undefined, {
      channel: 'sms',
    });
    await audit(tx, info, action, user.id, { channel: 'sms' });
    return issued;
  });
  await sendAuthSms(
    ctx,
    tokenType === 'phone_change_token' ? 'phone_change' : 'code',
    phone,
    code,
    info.language,
  );
}

export async function phoneSignup(
  ctx: AuthContext,
  info: RequestInfo,
  body: {
    phone: string;
    password?: string | null | undefined;
    channel?: string | null | undefined;
  },
  userMetadata: Record<string, unknown>,
) {
  assertPhoneEnabled(ctx);
  assertSmsChannel(body.channel);
  const phone = parsePhone(body.phone);
  if (!body.password) throw errors.validation('Signup requires a valid password');
  assertPasswordAcceptable(body.password, ctx.auth.passwordMinLength);
  // Hash whatever happens next, so every branch costs the same time.
  const encryptedPassword = await hashPassword(body.password);
  const autoconfirm = ctx.auth.sms.autoconfirm;

  const repeated = async () => {
    const existing = await findUserByPhone(ctx.db, phone);
    if (!existing) return undefined;
    if (autoconfirm) throw errors.userAlreadyExists();
    await claimSmsSlot(ctx, phone);
    if (existing.phoneConfirmedAt) {
      // Tell the owner, not the caller: the answer looks like a brand-new sign-up.
      await audit(ctx.db, info, 'user_repeated_signup', existing.id, { provider: 'phone' });
      await sendAuthSms(ctx, 'existing_account', phone, undefined, info.language);
      return {
        ...fakeUserJson('', userMetadata, ctx.clock()),
        phone,
        app_metadata: { provider: 'phone', providers: ['phone'] },
      };
    }
    await issueAndText(
      ctx,
      info,
      existing,
      'confirmation_token',
      phone,
      'user_confirmation_requested',
    );
    const fresh = (await findUserByPhone(ctx.db, phone)) ?? existing;
    return userJson(fresh, await identitiesOf(ctx.db, existing.id));
  };

  const answer = await repeated();
  if (answer) return answer;
  try {
    if (autoconfirm) {
      return await ctx.db.transaction(async (tx) => {
        const now = ctx.clock();
        const user = await createUser(tx, {
          phone: { address: phone, confirmed: true },
          encryptedPassword,
          userMetadata,
          now,
          aud: ctx.auth.jwtAud,
        });
        await audit(tx, info, 'user_signedup', user.id, { provider: 'phone' });
        return startSession(ctx, tx, user, 'password', info);
      });
    }
    await claimSmsSlot(ctx, phone);
    const user = await ctx.db.transaction(async (tx) => {
      const now = ctx.clock();
      const created = await createUser(tx, {
        phone: { address: phone, confirmed: false },
        encryptedPassword,
        userMetadata,
        now,
        aud: ctx.auth.jwtAud,
      });
      await audit(tx, info, 'user_signedup', created.id, { provider: 'phone' });
      return created;
    });
    await issueAndText(ctx, info, user, 'confirmation_token', phone, 'user_confirmation_requested');
    const fresh = (await findUserByPhone(ctx.db, phone)) ?? user;
    return userJson(fresh, await identitiesOf(ctx.db, user.id));
  } catch (error) {
    // Two sign-ups for one new number at once: the loser is answered as a repeat.
    if (!isUniqueViolation(error)) throw error;
    const again = await repeated();
    if (again) return again;
    throw error;
  }
}

export async function phoneOtp(
  ctx: AuthContext,
  info: RequestInfo,
  body: {
    phone: string;
    data?: Record<string, unknown> | null | undefined;
    create_user?: boolean | null | undefined;
    channel?: string | null | undefined;
  },
): Promise<Record<string, never>> {
  assertPhoneEnabled(ctx);
  assertSmsChannel(body.channel);
  const phone = parsePhone(body.phone);
  const user = await findUserByPhone(ctx.db, phone);
  const mayCreate = (body.create_user ?? true) && !ctx.auth.disableSignup;
  if (!user && !mayCreate && !ctx.auth.enumerationProtection) {
    throw errors.otpSignupDisabled();
  }
  // Known or not, one SMS per number per interval: the 429 reveals nothing.
  await claimSmsSlot(ctx, phone);
  // No account and none to create: answered like a sent code, but nothing is texted (an SMS
  // to a stranger costs money and invites toll fraud).
  if (!user && !mayCreate) return {};
  let target = user;
  if (!target) {
    try {
      target = await ctx.db.transaction(async (tx) => {
        const now = ctx.clock();
        const created = await createUser(tx, {
          phone: { address: phone, confirmed: false },
          encryptedPassword: null,
          userMetadata: body.data ?? {},
          now,
          aud: ctx.auth.jwtAud,
        });
        await audit(tx, info, 'user_signedup', created.id, { provider: 'phone' });
        return created;
      });
    } catch (error) {
      // A sign-up for the same number won the race; its own code is on the way.
      if (isUniqueViolation(error)) return {};
      throw error;
    }
  }
  if (target.phoneConfirmedAt) {
    await issueAndText(ctx, info, target, 'magiclink_token', phone, 'magiclink_requested');
  } else {
    await issueAndText(
      ctx,
      info,
      target,
      'confirmation_token',
      phone,
      'user_confirmation_requested',
    );
  }
  return {};
}

export async function phoneVerify(
  ctx: AuthContext,
  info: RequestInfo,
  type: 'sms' | 'phone_change',
  rawPhone: string,
  code: string,
): Promise<SessionJson> {
  assertPhoneEnabled(ctx);
  const phone = parsePhone(rawPhone);
  const run = () =>
    ctx.db.transaction(async (tx) => {
      const found =
        type === 'sms' ? await findUserByPhone(tx, phone) : await findUserByPendingPhone(tx, phone);
      if (!found) return errors.otpExpired();
      const verified = await consumeCodeOf(
        ctx,
        tx,
        found,
        phone,
        code,
        type === 'sms' ? [...smsTokenTypes] : ['phone_change_token'],
      );
      if (verified instanceof AuthError) return verified;
      const now = ctx.clock();
      if (isBanned(verified.user, now)) return errors.userBanned();
      let user = verified.user;
      if (type === 'phone_change') {
        const taken = await findUserByPhone(tx, phone);
        if (taken && taken.id !== user.id) return errors.phoneExists();
        user = await applyPhoneChange(tx, user, now);
        await audit(tx, info, 'user_modified', user.id, { change: 'phone' });
      } else {
        user = await confirmPhone(tx, user, now);
      }
      return startSession(ctx, tx, user, type === 'sms' ? 'otp' : 'phone_change', info);
    });
  let outcome: Awaited<ReturnType<typeof run>>;
  try {
    outcome = await run();
  } catch (error) {
    // Two accounts confirming a change to one new number at once: the second loses.
    if (isUniqueViolation(error)) throw errors.phoneExists();
    throw error;
  }
  if (outcome instanceof AuthError) throw outcome;
  return outcome;
}

export async function phoneResend(
  ctx: AuthContext,
  info: RequestInfo,
  type: 'sms' | 'phone_change',
  rawPhone: string | null | undefined,
): Promise<Record<string, never>> {
  assertPhoneEnabled(ctx);
  const phone = parsePhone(rawPhone);
  await claimSmsSlot(ctx, phone);
  if (type === 'phone_change') {
    // Again to the new number of a pending change; nothing for anyone else.
    const changing = await findUserByPendingPhone(ctx.db, phone);
    if (changing) {
      await issueAndText(ctx, info, changing, 'phone_change_token', phone, 'user_modified');
    }
    return {};
  }
  const user = await findUserByPhone(ctx.db, phone);
  if (user && !user.phoneConfirmedAt) {
    await issueAndText(ctx, info, user, 'confirmation_token', phone, 'user_confirmation_requested');
  }
  return {};
}

/** PUT /user's checks for a new number, before anything changes: the number, or undefined. */
export async function preparePhoneChange(
  ctx: AuthContext,
  user: UserRow,
  rawPhone: string,
): Promise<string | undefined> {
  assertPhoneEnabled(ctx);
  const phone = parsePhone(rawPhone);
  if (phone === user.phone) return undefined;
  const taken = await findUserByPhone(ctx.db, phone);
  if (taken) throw errors.phoneExists();
  if (!ctx.auth.sms.autoconfirm) await claimSmsSlot(ctx, phone);
  return phone;
}

/** Records the pending number and texts it a code (or, autoconfirm, changes it at once). */
export async function requestPhoneChange(
  ctx: AuthContext,
  info: RequestInfo,
  user: UserRow,
  phone: string,
): Promise<UserRow> {
  const change = () =>
    ctx.db.transaction(async (tx) => {
      const now = ctx.clock();
      const [row] = await tx
        .update(authUsers)
        .set({ phoneChange: phone, updatedAt: now })
        .where(eq(authUsers.id, user.id))
        .returning();
      if (ctx.auth.sms.autoconfirm) {
        const changed = await applyPhoneChange(tx, row as UserRow, now);
        await audit(tx, info, 'user_modified', user.id, { change: 'phone' });
        return changed;
      }
      return row as UserRow;
    });
  let pending: UserRow;
  try {
    pending = await change();
  } catch (error) {
    // Another account took the number meanwhile.
    if (isUniqueViolation(error)) throw errors.phoneExists();
    throw error;
  }
  if (ctx.auth.sms.autoconfirm) return pending;
  await issueAndText(ctx, info, pending, 'phone_change_token', phone, 'user_modified');
  return (await findUserById(ctx.db, user.id)) ?? pending;
}

/** GET /reauthenticate for an account with a confirmed phone and no confirmed email. */
export async function phoneReauthenticate(
  ctx: AuthContext,
  info: RequestInfo,
  user: UserRow,
  phone: string,
): Promise<Record<string, never>> {
  await claimSmsSlot(ctx, phone);
  const { code } = await ctx.db.transaction(async (tx) => {
    const issued = await issueToken(
      ctx,
      tx,
      user,
      'reauthentication_token',
      phone,
      ctx.auth.siteUrl,
      undefined,
      { channel: 'sms' },
    );
    await audit(tx, info, 'user_modified', user.id, { change: 'reauthentication_requested' });
    return issued;
  });
  await sendAuthSms(ctx, 'reauthentication', phone, code, info.language);
  return {};
}
