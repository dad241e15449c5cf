import type { Db, Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/refusals.ts';
import { type AuditAction, audit } from './audit.repository.ts';
import { queryParam } from './body.ts';
import type { AuthContext, RequestInfo } from './context.ts';
import { AuthError, errors } from './errors.ts';
import { pendingTokens } from './one-time-tokens.repository.ts';
import { issueToken, sendAuthEmail, tokenTypesFor } from './one-time-tokens.ts';
import {
  applyPhoneChange,
  assertPhoneEnabled,
  claimSmsSlot,
  confirmPhone,
  findUserByPendingPhone,
  findUserByPhone,
  parsePhone,
  sendAuthSms,
} from './phone.ts';
import type { Pkce } from './pkce.ts';
import { claimSendSlot } from './rate-limit.ts';
import { resolveRedirect } from './redirect.ts';
import {
  applyEmailChange,
  confirmEmail,
  findUserByEmail,
  findUserByPendingEmail,
  isBanned,
  isValidEmail,
  normaliseEmail,
  type UserRow,
} from './users.ts';

/**
 * The two ways a code reaches a user, email and SMS: the rules of sending, resending and
 * verifying codes are written once over a channel; what differs (parsing, the send interval,
 * the message, GoTrue's wording) is the channel's.
 */
export type Channel = {
  kind: 'email' | 'phone';
  /** Refuses when this instance cannot send by this channel. */
  assertEnabled(ctx: AuthContext): void;
  /** The address in its stored form, or GoTrue's validation error. */
  parse(ctx: AuthContext, raw: string | null | undefined): string;
  /** One message per address per interval, known or not. */
  claimSlot(ctx: AuthContext, address: string): Promise<void>;
  findUser(db: Db | Tx, address: string): Promise<UserRow | undefined>;
  /** The user waiting to change their address to this one. */
  findPending(db: Db | Tx, address: string): Promise<UserRow | undefined>;
  isConfirmed(user: UserRow): boolean;
  pendingAddress(user: UserRow): string | null;
  confirm(tx: Tx, user: UserRow, now: Date): Promise<UserRow>;
  applyChange(tx: Tx, user: UserRow, now: Date): Promise<UserRow>;
  /** A secure email change waits for the codes of both addresses; this was the first. */
  changeWaitsForOtherHalf(tx: Tx, user: UserRow): Promise<boolean>;
  /** The address belongs to another account. */
  exists(): AuthError;
  /** GET /reauthenticate before the address it would send to is confirmed. */
  notConfirmedForReauthentication(): AuthError;
};

export const emailChannel: Channel = {
  kind: 'email',
  assertEnabled() {},
  parse(_ctx, raw) {
    if (!raw) throw errors.validation('An email address is required');
    const email = normaliseEmail(raw);
    if (!isValidEmail(email)) throw errors.invalidEmail();
    return email;
  },
  claimSlot: (ctx, email) => claimSendSlot(ctx.db, ctx.clock, email, ctx.auth.smtpMaxFrequency),
  findUser: findUserByEmail,
  findPending: findUserByPendingEmail,
  isConfirmed: (user) => user.emailConfirmedAt !== null,
  pendingAddress: (user) => user.emailChange,
  confirm: confirmEmail,
  applyChange: applyEmailChange,
  changeWaitsForOtherHalf: async (tx, user) =>
    (await pendingTokens(tx, user.id, tokenTypesFor.email_change)).length > 0,
  exists: errors.emailExists,
  notConfirmedForReauthentication: errors.reauthenticateEmailNotConfirmed,
};

export const phoneChannel: Channel = {
  kind: 'phone',
  assertEnabled: assertPhoneEnabled,
  parse(ctx, raw) {
    assertPhoneEnabled(ctx);
    return parsePhone(raw);
  },
  claimSlot: claimSmsSlot,
  findUser: findUserByPhone,
  findPending: findUserByPendingPhone,
  isConfirmed: (user) => user.phoneConfirmedAt !== null,
  pendingAddress: (user) => user.phoneChange,
  confirm: confirmPhone,
  applyChange: applyPhoneChange,
  changeWaitsForOtherHalf: async () => false,
  exists: errors.phoneExists,
  notConfirmedForReauthentication: errors.reauthenticatePhoneNotConfirmed,
};

/** What a code is sent for. */
export type Purpose = 'confirm' | 'signin' | 'change' | 'reauthenticate';

/** Where the request asked its email's link to lead: `?redirect_to=`, else its Referer. */
export type RedirectAsk = { query: unknown; referer: string | undefined };

/** The allowed redirect the request asked for, or the site URL. */
export function redirectOf(ctx: AuthContext, ask: RedirectAsk): string {
  return resolveRedirect(ctx.redirects, queryParam(ask.query, 'redirect_to'), ask.referer);
}

/** Where an email's link leads (GET /verify's redirect, and the PKCE flow it ends in). */
export type LinkTarget = { redirectTo: string; pkce?: Pkce | undefined };

const emailMessages = {
  confirm: {
    tokenType: 'confirmation_token',
    template: 'signup',
    linkType: 'signup',
    action: 'user_confirmation_requested',
  },
  signin: {
    tokenType: 'magiclink_token',
    template: 'magiclink',
    linkType: 'magiclink',
    action: 'magiclink_requested',
  },
  change: {
    tokenType: 'email_change_token_new',
    template: 'email_change_new',
    linkType: 'email_change',
    action: undefined,
  },
  reauthenticate: {
    tokenType: 'reauthentication_token',
    template: 'reauthentication',
    linkType: 'email',
    action: undefined,
  },
} as const;

const smsMessages = {
  confirm: { tokenType: 'confirmation_token', kind: 'code', action: 'user_confirmation_requested' },
  signin: { tokenType: 'magiclink_token', kind: 'code', action: 'magiclink_requested' },
  change: { tokenType: 'phone_change_token', kind: 'phone_change', action: 'user_modified' },
  reauthenticate: {
    tokenType: 'reauthentication_token',
    kind: 'reauthentication',
    action: 'user_modified',
  },
} as const;

/**
 * Issues the user's code for `purpose` in its own transaction and sends it: an email (with its
 * link to `link`) or an SMS (codes only).
 */
export async function sendCode(
  ctx: AuthContext,
  info: RequestInfo,
  channel: Channel,
  user: UserRow,
  address: string,
  purpose: Purpose,
  link: LinkTarget = { redirectTo: ctx.auth.siteUrl },
): Promise<void> {
  if (channel.kind === 'phone') {
    const message = smsMessages[purpose];
    const { code } = await ctx.db.transaction(async (tx) => {
      const issued = await issueToken(
        ctx,
        tx,
        user,
        message.tokenType,
        address,
        ctx.auth.siteUrl,
        undefined,
        { channel: 'sms' },
      );
      await audit(tx, info, message.action, user.id, smsAuditTraits(purpose));
      return issued;
    });
    await sendAuthSms(ctx, message.kind, address, code, info.language);
    return;
  }
  const message = emailMessages[purpose];
  const issued = await ctx.db.transaction(async (tx) => {
    const token = await issueToken(
      ctx,
      tx,
      user,
      message.tokenType,
      address,
      link.redirectTo,
      link.pkce,
    );
    const action: AuditAction | undefined = message.action;
    if (action) await audit(tx, info, action, user.id, {});
    return token;
  });
  await sendAuthEmail(
    ctx,
    message.template,
    address,
    { ...issued, type: message.linkType, redirectTo: link.redirectTo },
    info.language,
  );
}

function smsAuditTraits(purpose: Purpose): Record<string, unknown> {
  return purpose === 'reauthenticate'
    ? { change: 'reauthentication_requested' }
    : { channel: 'sms' };
}

/** Answered for the first half of a secure email change (GoTrue's wording). */
export const FIRST_HALF = 'first_half';

/**
 * The last step of a verified code or link: a change moves the pending address into place
 * (unless another account took it meanwhile), anything else confirms the address.
 */
export async function applyVerified(
  ctx: AuthContext,
  tx: Tx,
  info: RequestInfo,
  channel: Channel,
  user: UserRow,
  change: boolean,
): Promise<UserRow | AuthError | typeof FIRST_HALF> {
  const now = ctx.clock();
  if (isBanned(user, now)) return errors.userBanned();
  if (!change) return channel.confirm(tx, user, now);
  if (await channel.changeWaitsForOtherHalf(tx, user)) return FIRST_HALF;
  const address = channel.pendingAddress(user);
  if (!address) return errors.otpExpired();
  const taken = await channel.findUser(tx, address);
  if (taken && taken.id !== user.id) return channel.exists();
  const changed = await channel.applyChange(tx, user, now);
  await audit(tx, info, 'user_modified', user.id, { change: channel.kind });
  return changed;
}

/**
 * Runs a verification in one transaction that commits failed attempts too (the failure is
 * returned, then thrown here). Two accounts confirming a change to one new address at once:
 * the second loses.
 */
export async function verifying<T>(
  ctx: AuthContext,
  channel: Channel,
  run: (tx: Tx) => Promise<T | AuthError>,
): Promise<T> {
  let outcome: T | AuthError;
  try {
    outcome = await ctx.db.transaction(run);
  } catch (error) {
    if (isUniqueViolation(error)) throw channel.exists();
    throw error;
  }
  if (outcome instanceof AuthError) throw outcome;
  return outcome;
}
