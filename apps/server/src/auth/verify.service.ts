import type { Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/refusals.ts';
import { audit } from './audit.repository.ts';
import {
  applyVerified,
  type Channel,
  emailChannel,
  FIRST_HALF,
  phoneChannel,
  type RedirectAsk,
  redirectOf,
  sendCode,
  verifying,
} from './channels.ts';
import { type AuthContext, afterAnswer, type RequestInfo } from './context.ts';
import { AuthError, errors } from './errors.ts';
import {
  consumeByCode,
  consumeByLink,
  consumeCodeOf,
  deliverAuthEmail,
  type EmailVerifyType,
  issueToken,
  isVerifyType,
  type Verified,
} from './one-time-tokens.ts';
import { assertPhoneEnabled, assertSmsChannel, normalisePhone } from './phone.ts';
import { authenticationMethodFor, issueAuthCode, pkceFromBody } from './pkce.ts';
import { underWrongCodeLimit } from './rate-limit.ts';
import { isAllowedRedirect, resolveRedirect } from './redirect.ts';
import { type SessionJson, startSession } from './sessions.service.ts';
import { signUpUser } from './users.service.ts';
import { findUserByEmail, normaliseEmail } from './users.ts';

type Optional<T> = T | null | undefined;

/** The amr method a verification type signs in with. */
const methodOf: Record<EmailVerifyType | 'sms' | 'phone_change', string> = {
  signup: 'otp',
  email: 'otp',
  magiclink: 'magiclink',
  recovery: 'recovery',
  invite: 'invite',
  email_change: 'email_change',
  sms: 'otp',
  phone_change: 'phone_change',
};

const EMAIL_CHANGE_HALF =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

type Outcome = { redirectTo: string | null } & (
  | { session: SessionJson }
  | { message: string }
  | { authCode: string }
);

/**
 * Verifies a code or link in one transaction that commits failed attempts too, then signs
 * in (or, `pkce`, issues the auth code the app that started the flow exchanges). The first
 * half of a secure email change answers with a message instead.
 */
function verifyAndSignIn(
  ctx: AuthContext,
  info: RequestInfo,
  channel: Channel,
  type: EmailVerifyType | 'sms' | 'phone_change',
  consume: (tx: Tx) => Promise<Verified | AuthError>,
  mode: 'session' | 'pkce' = 'session',
): Promise<Outcome> {
  return verifying(ctx, channel, async (tx) => {
    const verified = await consume(tx);
    if (verified instanceof AuthError) return verified;
    const { redirectTo } = verified;
    const change = type === 'email_change' || type === 'phone_change';
    const user = await applyVerified(ctx, tx, info, channel, verified.user, change);
    if (user instanceof AuthError) return user;
    if (user === FIRST_HALF) return { message: EMAIL_CHANGE_HALF, redirectTo };
    if (mode === 'pkce') {
      const authCode = await issueAuthCode(ctx, tx, user.id, authenticationMethodFor(type));
      if (!authCode) return errors.flowStateNotFound();
      return { authCode, redirectTo };
    }
    return { session: await startSession(ctx, tx, user, methodOf[type], info), redirectTo };
  });
}

function verifyEmail(
  ctx: AuthContext,
  info: RequestInfo,
  type: EmailVerifyType,
  by: { linkToken: string } | { email: string; code: string },
  mode: 'session' | 'pkce' = 'session',
): Promise<Outcome> {
  return verifyAndSignIn(
    ctx,
    info,
    emailChannel,
    type,
    (tx) =>
      'linkToken' in by
        ? consumeByLink(ctx, tx, by.linkToken, type)
        : consumeByCode(ctx, tx, by.email, by.code, type),
    mode,
  );
}

/** SMS codes: `sms` signs in or confirms the number, `phone_change` the pending number. */
function verifyPhone(
  ctx: AuthContext,
  info: RequestInfo,
  type: 'sms' | 'phone_change',
  rawPhone: string,
  code: string,
): Promise<Outcome> {
  const phone = phoneChannel.parse(ctx, rawPhone);
  return verifyAndSignIn(ctx, info, phoneChannel, type, async (tx) => {
    const found =
      type === 'sms'
        ? await phoneChannel.findUser(tx, phone)
        : await phoneChannel.findPending(tx, phone);
    if (!found) return errors.otpExpired();
    const types = type === 'sms' ? SMS_TOKEN_TYPES : PHONE_CHANGE_TOKEN_TYPES;
    return consumeCodeOf(ctx, tx, found, phone, code, types);
  });
}

const SMS_TOKEN_TYPES: ['confirmation_token', 'magiclink_token'] = [
  'confirmation_token',
  'magiclink_token',
];
const PHONE_CHANGE_TOKEN_TYPES: ['phone_change_token'] = ['phone_change_token'];

/** POST /verify's answer: a session, or GoTrue's message for a first half. */
function answer(outcome: Outcome): SessionJson | { msg: string; code: number } {
  if ('message' in outcome) return { msg: outcome.message, code: 200 };
  if ('authCode' in outcome) throw errors.otpExpired(); // not reached: POST never asks for PKCE
  return outcome.session;
}

/** POST /verify: a code with its address, or a link's token_hash. */
export async function verifyOtp(
  ctx: AuthContext,
  info: RequestInfo,
  body: {
    type?: Optional<string>;
    email?: Optional<string>;
    phone?: Optional<string>;
    token?: Optional<string>;
    token_hash?: Optional<string>;
  },
): Promise<SessionJson | { msg: string; code: number }> {
  if (!isVerifyType(body.type)) {
    if (body.type === 'sms' || body.type === 'phone_change') {
      // SMS carry codes only: there is no link (token_hash) to verify.
      if (body.token_hash) throw errors.otpExpired();
      if (!body.phone || !body.token) {
        throw errors.validation('Verify requires a phone number and a token');
      }
      const { phone, token } = body;
      const type = body.type;
      return answer(
        await underWrongCodeLimit(ctx, `phone:${normalisePhone(phone)}`, info.ip, () =>
          verifyPhone(ctx, info, type, phone, token),
        ),
      );
    }
    throw errors.validation('Verify requires a verification type');
  }
  if (body.token_hash) {
    if (body.email || body.phone) {
      throw errors.validation('Only the token_hash and type should be provided');
    }
    return answer(await verifyEmail(ctx, info, body.type, { linkToken: body.token_hash }));
  }
  if (!body.email || !body.token) {
    throw errors.validation('Verify requires either a token_hash or an email and a token');
  }
  const email = normaliseEmail(body.email);
  const { type, token } = body;
  return answer(
    await underWrongCodeLimit(ctx, email, info.ip, () =>
      verifyEmail(ctx, info, type, { email, code: token }),
    ),
  );
}

/**
 * GET /verify, the link in an email (a browser navigation): where to send the browser, with
 * the session (or PKCE auth code) or the error. The rate limit is counted inside, so that
 * it too ends in a redirect.
 */
export async function verifyLink(
  ctx: AuthContext,
  info: RequestInfo,
  query: { type?: string | undefined; token?: string | undefined; redirectTo?: string | undefined },
): Promise<string> {
  const { type, token } = query;
  const target = resolveRedirect(ctx.redirects, query.redirectTo);
  const pkce = token?.startsWith('pkce_') ?? false;
  try {
    await ctx.limits.hit('verify', info.ip, ctx.auth.rateLimits.verify);
    if (!isVerifyType(type) || !token) throw errors.otpExpired();
    const verified = await verifyEmail(
      ctx,
      info,
      type,
      { linkToken: token },
      pkce ? 'pkce' : 'session',
    );
    // Without a redirect_to in the link, go where the link was issued for.
    const { redirectTo } = verified;
    const destination =
      !query.redirectTo && redirectTo && isAllowedRedirect(redirectTo, ctx.redirects)
        ? redirectTo
        : target;
    if ('message' in verified) {
      return withFragment(destination, { message: verified.message, sb: '' });
    }
    if ('authCode' in verified) {
      const url = new URL(destination);
      url.searchParams.set('code', verified.authCode);
      return url.toString();
    }
    const { session } = verified;
    return withFragment(destination, {
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: 'bearer',
      type,
      sb: '',
    });
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    const description =
      error.code === 'otp_expired' ? 'Email link is invalid or has expired' : error.message;
    const fragment = {
      error: error.status === 429 ? 'server_error' : 'access_denied',
      error_code: error.code,
      error_description: description,
    };
    return pkce
      ? withQueryAndFragment(target, fragment)
      : withFragment(target, { ...fragment, sb: '' });
  }
}

/** PKCE errors go in the query (which the app reads) and the fragment (GoTrue does both). */
function withQueryAndFragment(target: string, params: Record<string, string>): string {
  const url = new URL(target);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  url.hash = new URLSearchParams({ ...params, sb: '' }).toString();
  return url.toString();
}

function withFragment(target: string, fragment: Record<string, string>): string {
  const base = target.split('#', 1)[0] as string;
  return `${base}#${new URLSearchParams(fragment).toString()}`;
}

type OtpInput = {
  email?: Optional<string>;
  phone?: Optional<string>;
  data?: Optional<Record<string, unknown>>;
  create_user?: Optional<boolean>;
  channel?: Optional<string>;
  code_challenge?: Optional<string>;
  code_challenge_method?: Optional<string>;
};

/** /otp with `create_user: false` for an address without an account (GoTrue's rule). */
function mayCreate(ctx: AuthContext, body: OtpInput): boolean {
  return (body.create_user ?? true) && !ctx.auth.disableSignup;
}

/** POST /otp: a sign-in code (and link, by email), creating the account unless asked not to. */
export async function sendOtp(
  ctx: AuthContext,
  info: RequestInfo,
  body: OtpInput,
  ask: RedirectAsk,
): Promise<Record<string, never>> {
  const pkce = pkceFromBody(body);
  if (!body.email && body.phone) return sendPhoneOtp(ctx, info, body);
  const email = emailChannel.parse(ctx, body.email);
  const redirectTo = redirectOf(ctx, ask);
  const creates = mayCreate(ctx, body);
  if (!creates && !ctx.auth.enumerationProtection && !(await findUserByEmail(ctx.db, email))) {
    throw errors.otpSignupDisabled();
  }
  // Known or not, one message per address per interval: the 429 reveals nothing. The rest
  // depends on the account, so it runs after the answer.
  await emailChannel.claimSlot(ctx, email);
  await ctx.emailQuota.take();
  afterAnswer(ctx, 'otp email', async () => {
    const user = await findUserByEmail(ctx.db, email);
    if (!user && !creates) {
      // GoTrue answers 422 otp_disabled here, which tells anyone the address has no account.
      await deliverAuthEmail(ctx, 'no_account', email, undefined, info.language);
      return;
    }
    const issue = () =>
      ctx.db.transaction(async (tx) => {
        const now = ctx.clock();
        if (!user?.emailConfirmedAt) {
          const target =
            user ??
            (await signUpUser(tx, info, {
              email: { address: email, confirmed: false },
              encryptedPassword: null,
              userMetadata: body.data ?? {},
              now,
              aud: ctx.auth.jwtAud,
            }));
          const link = await issueToken(
            ctx,
            tx,
            target,
            'confirmation_token',
            email,
            redirectTo,
            pkce,
          );
          return { kind: 'signup' as const, link };
        }
        const link = await issueToken(ctx, tx, user, 'magiclink_token', email, redirectTo, pkce);
        await audit(tx, info, 'magiclink_requested', user.id, {});
        return { kind: 'magiclink' as const, link };
      });
    let issued: Awaited<ReturnType<typeof issue>>;
    try {
      issued = await issue();
    } catch (error) {
      // A sign-up for the same address won the race; its own email is on the way.
      if (isUniqueViolation(error)) return;
      throw error;
    }
    await deliverAuthEmail(
      ctx,
      issued.kind,
      email,
      { ...issued.link, type: issued.kind, redirectTo },
      info.language,
    );
  });
  return {};
}

/**
 * /otp by SMS. Unlike email, the code goes out before the answer (GoTrue's sms_send_failed
 * needs that), and no SMS goes to a number without an account (toll fraud).
 */
async function sendPhoneOtp(
  ctx: AuthContext,
  info: RequestInfo,
  body: OtpInput,
): Promise<Record<string, never>> {
  assertPhoneEnabled(ctx);
  assertSmsChannel(body.channel);
  const phone = phoneChannel.parse(ctx, body.phone);
  const user = await phoneChannel.findUser(ctx.db, phone);
  const creates = mayCreate(ctx, body);
  if (!user && !creates && !ctx.auth.enumerationProtection) {
    throw errors.otpSignupDisabled();
  }
  // Known or not, one SMS per number per interval: the 429 reveals nothing.
  await phoneChannel.claimSlot(ctx, phone);
  // No account and none to create: answered like a sent code, but nothing is texted.
  if (!user && !creates) return {};
  let target = user;
  if (!target) {
    try {
      target = await ctx.db.transaction(async (tx) => {
        const now = ctx.clock();
        return signUpUser(tx, info, {
          phone: { address: phone, confirmed: false },
          encryptedPassword: null,
          userMetadata: body.data ?? {},
          now,
          aud: ctx.auth.jwtAud,
        });
      });
    } catch (error) {
      // A sign-up for the same number won the race; its own code is on the way.
      if (isUniqueViolation(error)) return {};
      throw error;
    }
  }
  const purpose = phoneChannel.isConfirmed(target) ? 'signin' : 'confirm';
  await sendCode(ctx, info, phoneChannel, target, phone, purpose);
  return {};
}

/** POST /recover: a recovery link, for any address alike. */
export async function recover(
  ctx: AuthContext,
  info: RequestInfo,
  body: {
    email?: Optional<string>;
    code_challenge?: Optional<string>;
    code_challenge_method?: Optional<string>;
  },
  ask: RedirectAsk,
): Promise<Record<string, never>> {
  const pkce = pkceFromBody(body);
  const email = emailChannel.parse(ctx, body.email);
  const redirectTo = redirectOf(ctx, ask);
  // Known or not, the same work before the answer; the account's part runs after it.
  await emailChannel.claimSlot(ctx, email);
  await ctx.emailQuota.take();
  afterAnswer(ctx, 'recovery email', async () => {
    const user = await findUserByEmail(ctx.db, email);
    if (!user) return;
    const link = await ctx.db.transaction(async (tx) => {
      const issued = await issueToken(ctx, tx, user, 'recovery_token', email, redirectTo, pkce);
      await audit(tx, info, 'user_recovery_requested', user.id, {});
      return issued;
    });
    await deliverAuthEmail(
      ctx,
      'recovery',
      email,
      { ...link, type: 'recovery', redirectTo },
      info.language,
    );
  });
  return {};
}

/**
 * POST /resend: the confirmation code again to an unconfirmed address, or the change code to
 * the new address of a pending change; nothing for anyone else, and the same answer.
 */
export async function resend(
  ctx: AuthContext,
  info: RequestInfo,
  body: {
    type?: Optional<string>;
    email?: Optional<string>;
    phone?: Optional<string>;
    code_challenge?: Optional<string>;
    code_challenge_method?: Optional<string>;
  },
  ask: RedirectAsk,
): Promise<Record<string, never>> {
  const pkce = pkceFromBody(body);
  const bySms = body.type === 'sms' || body.type === 'phone_change';
  if (!bySms && body.type !== 'signup' && body.type !== 'email_change') {
    throw errors.validation('Missing one of these types: signup, email_change, sms, phone_change');
  }
  const channel = bySms ? phoneChannel : emailChannel;
  const address = channel.parse(ctx, bySms ? body.phone : body.email);
  const link = bySms ? undefined : { redirectTo: redirectOf(ctx, ask), pkce };
  await channel.claimSlot(ctx, address);
  if (body.type === 'email_change' || body.type === 'phone_change') {
    const changing = await channel.findPending(ctx.db, address);
    if (changing) await sendCode(ctx, info, channel, changing, address, 'change', link);
    return {};
  }
  const user = await channel.findUser(ctx.db, address);
  if (user && !channel.isConfirmed(user)) {
    await sendCode(ctx, info, channel, user, address, 'confirm', link);
  }
  return {};
}
