import type { Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/refusals.ts';
import { updateOwnAccount } from './account.repository.ts';
import { audit } from './audit.repository.ts';
import { mergeMetadata } from './body.ts';
import {
  emailChannel,
  type LinkTarget,
  phoneChannel,
  type RedirectAsk,
  redirectOf,
  sendCode,
} from './channels.ts';
import type { AuthContext, RequestInfo } from './context.ts';
import { errors } from './errors.ts';
import type { Authenticated } from './guard.ts';
import { hasVerifiedFactor } from './mfa.repository.ts';
import { factorsJsonOf } from './mfa-factors.ts';
import { clearTokens } from './one-time-tokens.repository.ts';
import { consumeNonce, issueToken, sendAuthEmail } from './one-time-tokens.ts';
import { assertPasswordAcceptable, checkPassword, hashPassword } from './passwords.ts';
import { pkceFromBody } from './pkce.ts';
import { endSessions, type SessionRow } from './sessions.service.ts';
import { findUserById, identitiesOf, normaliseEmail, type UserRow, userJson } from './users.ts';

type Optional<T> = T | null | undefined;
type Me = Pick<Authenticated, 'user' | 'session'>;

/** GET /user (and PUT /user's answer): the user with identities and factors. */
export async function getUser(ctx: AuthContext, user: UserRow) {
  return userJson(user, await identitiesOf(ctx.db, user.id), await factorsJsonOf(ctx.db, user.id));
}

type UpdateInput = {
  email?: Optional<string>;
  phone?: Optional<string>;
  password?: Optional<string>;
  nonce?: Optional<string>;
  data?: Optional<Record<string, unknown>>;
  app_metadata?: unknown;
  code_challenge?: Optional<string>;
  code_challenge_method?: Optional<string>;
};

/** Sessions older than this need a fresh nonce to change the password. */
const REAUTH_AFTER_MS = 24 * 3_600_000;

/**
 * PUT /user: every check first (in GoTrue's order), then the email change, metadata and
 * password in one transaction, the emails, and last the phone change (which texts its code).
 */
export async function updateUser(
  ctx: AuthContext,
  info: RequestInfo,
  { user, session }: Me,
  body: UpdateInput,
  ask: RedirectAsk,
) {
  const pkce = pkceFromBody(body);
  if (body.app_metadata !== undefined && body.app_metadata !== null) throw errors.notAdmin();
  await assertAal(ctx, { user, session }, body);
  const newPhone = body.phone ? await preparePhoneChange(ctx, user, body.phone) : undefined;
  const newEmail = body.email ? await prepareEmailChange(ctx, user, body.email) : undefined;
  const redirectTo = redirectOf(ctx, ask);
  const encryptedPassword = body.password
    ? await preparePassword(ctx, { user, session }, body.password, body.nonce)
    : undefined;

  const mails: Array<() => Promise<void>> = [];
  const updated = await ctx.db.transaction(async (tx) => {
    const now = ctx.clock();
    let row: UserRow = user;
    if (newEmail) {
      row = await requestEmailChange(
        ctx,
        tx,
        info,
        user,
        newEmail,
        now,
        { redirectTo, pkce },
        mails,
      );
    }
    if (body.data) {
      const userMetadata = mergeMetadata(user.userMetadata, body.data);
      row = await updateOwnAccount(tx, user.id, { userMetadata, updatedAt: now });
      await audit(tx, info, 'user_modified', user.id, {});
    }
    if (encryptedPassword) {
      row = await updateOwnAccount(tx, user.id, { encryptedPassword, updatedAt: now });
      // Every other session ends, and no pending link or code survives.
      await endSessions(tx, user.id, 'others', session?.id);
      await clearTokens(tx, user.id);
      await audit(tx, info, 'user_updated_password', user.id, {
        session_id: session?.id ?? null,
      });
    }
    return row;
  });
  for (const send of mails) await send();
  const final = newPhone ? await requestPhoneChange(ctx, info, updated, newPhone) : updated;
  return getUser(ctx, final);
}

/** With a verified MFA factor, the address and the password change only at aal2. */
async function assertAal(ctx: AuthContext, { user, session }: Me, body: UpdateInput) {
  const changesEmail = Boolean(body.email && normaliseEmail(body.email) !== user.email);
  if (
    (changesEmail || body.password) &&
    session?.aal !== 'aal2' &&
    (await hasVerifiedFactor(ctx.db, user.id))
  ) {
    throw errors.insufficientAal(
      'AAL2 session is required to update email or password when MFA is enabled.',
      401,
    );
  }
}

/** The new address, or undefined when it is the current one; refused if taken. */
async function prepareEmailChange(ctx: AuthContext, user: UserRow, raw: string) {
  if (normaliseEmail(raw) === user.email) return undefined;
  const email = emailChannel.parse(ctx, raw);
  if (await emailChannel.findUser(ctx.db, email)) throw emailChannel.exists();
  await emailChannel.claimSlot(ctx, email);
  return email;
}

/** The new number, or undefined when it is the current one; refused if taken. */
async function preparePhoneChange(ctx: AuthContext, user: UserRow, raw: string) {
  const phone = phoneChannel.parse(ctx, raw);
  if (phone === user.phone) return undefined;
  if (await phoneChannel.findUser(ctx.db, phone)) throw phoneChannel.exists();
  if (!ctx.auth.sms.autoconfirm) await phoneChannel.claimSlot(ctx, phone);
  return phone;
}

/**
 * The new password's hash, once it is acceptable, differs from the current one and (an old
 * session, UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION) the nonce is consumed.
 */
async function preparePassword(
  ctx: AuthContext,
  { user, session }: Me,
  password: string,
  nonce: Optional<string>,
): Promise<string> {
  assertPasswordAcceptable(password, ctx.auth.passwordMinLength);
  if (
    ctx.auth.updatePasswordRequireReauthentication &&
    sessionAge(ctx, session) > REAUTH_AFTER_MS
  ) {
    if (!nonce) throw errors.reauthenticationNeeded();
    const checked = await ctx.db.transaction((tx) => consumeNonce(ctx, tx, user, nonce));
    if (checked !== true) throw checked;
  }
  if (user.encryptedPassword && (await checkPassword(password, user.encryptedPassword)).ok) {
    throw errors.samePassword();
  }
  return hashPassword(password);
}

function sessionAge(ctx: AuthContext, session: SessionRow | undefined): number {
  return session ? ctx.clock().getTime() - session.createdAt.getTime() : Infinity;
}

/**
 * Records the pending address and issues its codes: confirmed from the new address, and
 * (secure change) from the current one too. The emails are queued in `mails`, sent after
 * the transaction commits.
 */
async function requestEmailChange(
  ctx: AuthContext,
  tx: Tx,
  info: RequestInfo,
  user: UserRow,
  newEmail: string,
  now: Date,
  link: LinkTarget,
  mails: Array<() => Promise<void>>,
): Promise<UserRow> {
  const { redirectTo, pkce } = link;
  const row = await updateOwnAccount(tx, user.id, { emailChange: newEmail, updatedAt: now });
  const toNew = await issueToken(
    ctx,
    tx,
    row,
    'email_change_token_new',
    newEmail,
    redirectTo,
    pkce,
  );
  mails.push(() =>
    sendAuthEmail(
      ctx,
      'email_change_new',
      newEmail,
      { ...toNew, type: 'email_change', redirectTo },
      info.language,
    ),
  );
  const current = user.email;
  if (ctx.auth.mailerSecureEmailChange && current && user.emailConfirmedAt) {
    const toCurrent = await issueToken(
      ctx,
      tx,
      row,
      'email_change_token_current',
      current,
      redirectTo,
      pkce,
      // One flow for the change: whichever link is opened last gets the auth code.
      { flowStateExists: true },
    );
    mails.push(() =>
      sendAuthEmail(
        ctx,
        'email_change_current',
        current,
        { ...toCurrent, type: 'email_change', redirectTo, newEmail },
        info.language,
      ),
    );
  }
  const sent = (await findUserById(tx, user.id)) as UserRow;
  await audit(tx, info, 'user_modified', user.id, { change: 'email_requested' });
  return sent;
}

/** Records the pending number and texts it a code (or, autoconfirm, changes it at once). */
async function requestPhoneChange(
  ctx: AuthContext,
  info: RequestInfo,
  user: UserRow,
  phone: string,
): Promise<UserRow> {
  const change = () =>
    ctx.db.transaction(async (tx) => {
      const now = ctx.clock();
      const row = await updateOwnAccount(tx, user.id, { phoneChange: phone, updatedAt: now });
      if (!ctx.auth.sms.autoconfirm) return row;
      const changed = await phoneChannel.applyChange(tx, row, now);
      await audit(tx, info, 'user_modified', user.id, { change: 'phone' });
      return changed;
    });
  let pending: UserRow;
  try {
    pending = await change();
  } catch (error) {
    // Another account took the number meanwhile.
    if (isUniqueViolation(error)) throw phoneChannel.exists();
    throw error;
  }
  if (ctx.auth.sms.autoconfirm) return pending;
  await sendCode(ctx, info, phoneChannel, pending, phone, 'change');
  return (await findUserById(ctx.db, user.id)) ?? pending;
}

/**
 * GET /reauthenticate: the nonce for a password change, to the user's email, or by SMS to a
 * user with only a phone. GoTrue's order: an email, when there is one, must be confirmed (the
 * phone is then not used); otherwise the phone must be.
 */
export async function reauthenticate(
  ctx: AuthContext,
  info: RequestInfo,
  user: UserRow,
): Promise<Record<string, never>> {
  const channel = user.email ? emailChannel : phoneChannel;
  const address = user.email || user.phone;
  if (!address) {
    throw errors.validation(
      'Reauthentication requires the user to have an email or a phone number',
    );
  }
  if (!channel.isConfirmed(user)) throw channel.notConfirmedForReauthentication();
  channel.assertEnabled(ctx);
  await channel.claimSlot(ctx, address);
  await sendCode(ctx, info, channel, user, address, 'reauthenticate');
  return {};
}

/** POST /logout: ends this session, all of the user's, or all others (`scope`). */
export async function logout(
  ctx: AuthContext,
  info: RequestInfo,
  { user, session }: Me,
  scope: string,
): Promise<void> {
  if (scope !== 'global' && scope !== 'local' && scope !== 'others') {
    throw errors.validation(`Unsupported logout scope "${scope.slice(0, 20)}"`);
  }
  await ctx.db.transaction(async (tx) => {
    await endSessions(tx, user.id, scope, session?.id);
    await audit(tx, info, 'logout', user.id, { scope, session_id: session?.id ?? null });
  });
}
