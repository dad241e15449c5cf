import { defaultLanguage, type Language } from '@upnext/contract/languages';
import type { Tx } from '../db/client.ts';
import { type AuthContext, afterAnswer } from './context.ts';
import { hmacHex, randomCode, randomToken, safeEqualHex, sha256Hex } from './crypto.ts';
import { type AuthError, errors } from './errors.ts';
import {
  countWrongAttempt,
  deleteToken,
  lockTokenByHash,
  lockTokenOfType,
  lockTokensSentTo,
  type OneTimeTokenType,
  replaceToken,
  setSentAt,
} from './one-time-tokens.repository.ts';
import { createFlowState, type Pkce } from './pkce.ts';
import { renderAuthEmail, type TemplateKind } from './templates.ts';
import { lockUser } from './users.repository.ts';
import { findUserByEmail, findUserById, findUserByPendingEmail, type UserRow } from './users.ts';

/** Wrong codes a token survives; the next one deletes it. */
const MAX_OTP_ATTEMPTS = 5;

const emailVerifyTypes = [
  'signup',
  'email',
  'magiclink',
  'recovery',
  'invite',
  'email_change',
] as const;
export type EmailVerifyType = (typeof emailVerifyTypes)[number];

/** Which stored tokens a verification type may consume. */
export const tokenTypesFor: Record<EmailVerifyType, OneTimeTokenType[]> = {
  signup: ['confirmation_token'],
  email: ['confirmation_token', 'magiclink_token'],
  magiclink: ['magiclink_token', 'confirmation_token'],
  recovery: ['recovery_token'],
  invite: ['invite_token'],
  email_change: ['email_change_token_new', 'email_change_token_current'],
};

const methodForTokenType: Record<OneTimeTokenType, string> = {
  confirmation_token: 'email/signup',
  magiclink_token: 'magiclink',
  recovery_token: 'recovery',
  reauthentication_token: 'reauthentication',
  email_change_token_new: 'email_change',
  email_change_token_current: 'email_change',
  phone_change_token: 'phone_change',
  invite_token: 'invite',
};

function otpHash(ctx: AuthContext, address: string, code: string): string {
  return hmacHex(ctx.keys.hmacKey, `otp:${address}:${code}`);
}

/** Replaces the user's pending token of this type with a fresh link token and code. */
export async function issueToken(
  ctx: AuthContext,
  tx: Tx,
  user: UserRow,
  tokenType: OneTimeTokenType,
  address: string,
  redirectTo: string,
  pkce?: Pkce,
  options: { flowStateExists?: boolean; channel?: 'email' | 'sms' } = {},
): Promise<{ linkToken: string; code: string }> {
  const sms = options.channel === 'sms';
  const now = ctx.clock();
  // A PKCE link ends in an auth code for the app that holds the verifier, not in tokens.
  const linkToken = pkce ? `pkce_${randomToken()}` : randomToken();
  // One issuer per user at a time: concurrent requests would race on (user, type).
  // One token issuer per user at a time.
  await lockUser(tx, user.id);
  if (pkce && !options.flowStateExists) {
    await createFlowState(ctx, tx, user.id, pkce, methodForTokenType[tokenType], redirectTo);
  }
  const code = randomCode(sms ? ctx.auth.sms.otpLength : 6);
  await replaceToken(tx, {
    userId: user.id,
    tokenType,
    tokenHash: sha256Hex(linkToken),
    otpHash: otpHash(ctx, address, code),
    relatesTo: address,
    redirectTo,
    expiresAt: new Date(now.getTime() + (sms ? ctx.auth.sms.otpExp : ctx.auth.mailerOtpExp) * 1000),
    createdAt: now,
    updatedAt: now,
  });
  const sentAt =
    tokenType === 'recovery_token'
      ? { recoverySentAt: now }
      : tokenType === 'confirmation_token'
        ? { confirmationSentAt: now }
        : tokenType === 'email_change_token_new'
          ? { emailChangeSentAt: now }
          : tokenType === 'reauthentication_token'
            ? { reauthenticationSentAt: now }
            : tokenType === 'invite_token'
              ? { invitedAt: now }
              : tokenType === 'phone_change_token'
                ? { phoneChangeSentAt: now }
                : {};
  if (Object.keys(sentAt).length > 0) {
    await setSentAt(tx, user.id, sentAt);
  }
  return { linkToken, code };
}

/** The link an email carries: GET /verify with the link token, its type and the redirect. */
export function actionLink(
  ctx: AuthContext,
  linkToken: string,
  type: EmailVerifyType,
  redirectTo: string,
): string {
  return `${ctx.auth.externalUrl}/verify?${new URLSearchParams({
    token: linkToken,
    type,
    redirect_to: redirectTo,
  })}`;
}

/**
 * Sends an auth email, counting against the hourly quota. SMTP deliveries happen after the
 * answer: an SMTP round trip, or its failure, must not tell a caller whether an account exists
 * (GoTrue's 500 on a failed send does).
 */
export async function sendAuthEmail(
  ctx: AuthContext,
  kind: TemplateKind,
  to: string,
  link?: AuthEmailLink,
  /** The language of the page that asked (its Accept-Language): the email is written in it. */
  language: Language = defaultLanguage,
): Promise<void> {
  await ctx.emailQuota.take();
  if (ctx.mailer.kind === 'smtp') {
    afterAnswer(ctx, `${kind} email delivery`, () =>
      deliverAuthEmail(ctx, kind, to, link, language),
    );
    return;
  }
  await deliverAuthEmail(ctx, kind, to, link, language);
}

type AuthEmailLink = {
  linkToken: string;
  code: string;
  type: EmailVerifyType;
  redirectTo: string;
  newEmail?: string;
  teamName?: string | undefined;
};

/** Renders and sends an auth email now; the caller has taken it from the quota. */
export async function deliverAuthEmail(
  ctx: AuthContext,
  kind: TemplateKind,
  to: string,
  link?: AuthEmailLink,
  language: Language = defaultLanguage,
): Promise<void> {
  // The reauthentication code is typed into the app; a link would have nothing to verify.
  const confirmationUrl =
    link && kind !== 'reauthentication'
      ? actionLink(ctx, link.linkToken, link.type, link.redirectTo)
      : undefined;
  const message = renderAuthEmail(
    kind,
    {
      to,
      siteUrl: ctx.auth.siteUrl,
      ...(confirmationUrl ? { confirmationUrl } : {}),
      ...(link ? { token: link.code, validMinutes: Math.round(ctx.auth.mailerOtpExp / 60) } : {}),
      ...(link?.newEmail ? { newEmail: link.newEmail } : {}),
      ...(link?.teamName ? { teamName: link.teamName } : {}),
    },
    language,
  );
  await ctx.mailer.send(message);
}

export type Verified = { user: UserRow; redirectTo: string | null };

/**
 * Consumes a token by its link hash (GET /verify's `token`, POST /verify's `token_hash`).
 * Returns an error instead of throwing, so the caller's transaction still commits.
 */
export async function consumeByLink(
  ctx: AuthContext,
  tx: Tx,
  linkToken: string,
  type: EmailVerifyType,
): Promise<Verified | AuthError> {
  const row = await lockTokenByHash(tx, sha256Hex(linkToken));
  if (!row || !tokenTypesFor[type].includes(row.tokenType)) return errors.otpExpired();
  await deleteToken(tx, row.id);
  if (row.expiresAt.getTime() <= ctx.clock().getTime()) return errors.otpExpired();
  const user = await findUserById(tx, row.userId);
  if (!user) return errors.otpExpired();
  return { user, redirectTo: row.redirectTo };
}

/** Consumes a token by the address and the 6-digit code; wrong codes count against it. */
export async function consumeByCode(
  ctx: AuthContext,
  tx: Tx,
  email: string,
  code: string,
  type: EmailVerifyType,
): Promise<Verified | AuthError> {
  // An email change is confirmed with a code sent to the new address or to the current one.
  const user =
    (await findUserByEmail(tx, email)) ??
    (type === 'email_change' ? await findUserByPendingEmail(tx, email) : undefined);
  const types = tokenTypesFor[type];
  if (!user || types.length === 0) return errors.otpExpired();
  return consumeCodeOf(ctx, tx, user, email, code, types);
}

/**
 * Consumes the user's token of one of `types` sent to `address` (email or phone) by its code.
 * A wrong code leaves the tokens as they are (wrong codes are limited per address and client
 * IP instead: rate-limit.ts underWrongCodeLimit).
 */
export async function consumeCodeOf(
  ctx: AuthContext,
  tx: Tx,
  user: UserRow,
  address: string,
  code: string,
  types: OneTimeTokenType[],
): Promise<Verified | AuthError> {
  const rows = await lockTokensSentTo(tx, user.id, types, address);
  const now = ctx.clock().getTime();
  const live = rows.filter((row) => row.expiresAt.getTime() > now);
  const expected = otpHash(ctx, address, code.trim());
  const match = live.find((row) => safeEqualHex(row.otpHash, expected));
  if (!match) return errors.otpExpired();
  await deleteToken(tx, match.id);
  return { user, redirectTo: match.redirectTo };
}

/**
 * Consumes the reauthentication nonce (the code from GET /reauthenticate): single use,
 * expiring, attempt-limited. Returns an error instead of throwing, so attempts commit.
 */
export async function consumeNonce(
  ctx: AuthContext,
  tx: Tx,
  user: UserRow,
  nonce: string,
): Promise<true | AuthError> {
  const invalid = () => errors.reauthenticationNotValid();
  const row = await lockTokenOfType(tx, user.id, 'reauthentication_token');
  if (!row || row.expiresAt.getTime() <= ctx.clock().getTime()) return invalid();
  if (!safeEqualHex(row.otpHash, otpHash(ctx, row.relatesTo, nonce.trim()))) {
    if (row.attempts + 1 >= MAX_OTP_ATTEMPTS) await deleteToken(tx, row.id);
    else await countWrongAttempt(tx, row.id);
    return invalid();
  }
  await deleteToken(tx, row.id);
  return true;
}

export function isVerifyType(value: unknown): value is EmailVerifyType {
  return typeof value === 'string' && (emailVerifyTypes as readonly string[]).includes(value);
}
