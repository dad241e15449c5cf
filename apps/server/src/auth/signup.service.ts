import { isUniqueViolation } from '../db/refusals.ts';
import { audit } from './audit.repository.ts';
import { queryParam } from './body.ts';
import type { AuthContext, RequestInfo } from './context.ts';
import { errors } from './errors.ts';
import { issueToken, sendAuthEmail } from './one-time-tokens.ts';
import { assertPasswordAcceptable, hashPassword } from './passwords.ts';
import { phoneSignup } from './phone-signup.service.ts';
import { pkceFromBody } from './pkce.ts';
import { claimSendSlot } from './rate-limit.ts';
import { resolveRedirect } from './redirect.ts';
import { startSession } from './sessions.service.ts';
import { signUpUser } from './users.service.ts';
import {
  fakeUserJson,
  findUserByEmail,
  identitiesOf,
  isValidEmail,
  normaliseEmail,
  userJson,
} from './users.ts';

export type SignupBody = {
  email?: string | null | undefined;
  phone?: string | null | undefined;
  password?: string | null | undefined;
  data?: Record<string, unknown> | null | undefined;
  channel?: string | null | undefined;
  code_challenge?: string | null | undefined;
  code_challenge_method?: string | null | undefined;
};

/** Where a confirmation link lands: `redirect_to`, else the page that asked (allow-listed). */
type RedirectSource = { query: unknown; referer: string | undefined };

/** POST /signup: no address is an anonymous sign-up; otherwise by email, or else by phone. */
export async function signup(
  ctx: AuthContext,
  body: SignupBody,
  redirect: RedirectSource,
  info: RequestInfo,
) {
  const userMetadata = body.data ?? {};
  if (!body.email && !body.phone) return anonymousSignup(ctx, userMetadata, info);
  if (ctx.auth.disableSignup) throw errors.signupDisabled();
  if (!body.email) {
    return phoneSignup(ctx, info, { ...body, phone: body.phone ?? '' }, userMetadata);
  }
  return emailSignup(ctx, { ...body, email: body.email }, userMetadata, redirect, info);
}

async function anonymousSignup(
  ctx: AuthContext,
  userMetadata: Record<string, unknown>,
  info: RequestInfo,
) {
  if (!ctx.auth.anonymousSignInsEnabled) throw errors.anonymousDisabled();
  if (ctx.auth.disableSignup) throw errors.signupDisabled();
  return ctx.db.transaction(async (tx) => {
    const user = await signUpUser(tx, info, {
      userMetadata,
      now: ctx.clock(),
      aud: ctx.auth.jwtAud,
    });
    return startSession(ctx, tx, user, 'anonymous', info);
  });
}

async function emailSignup(
  ctx: AuthContext,
  body: SignupBody & { email: string },
  userMetadata: Record<string, unknown>,
  redirect: RedirectSource,
  info: RequestInfo,
) {
  const email = normaliseEmail(body.email);
  if (!isValidEmail(email)) throw errors.invalidEmail();
  if (!body.password) throw errors.validation('Signup requires a valid password');
  assertPasswordAcceptable(body.password, ctx.auth.passwordMinLength);
  const pkce = pkceFromBody(body);
  // Hash whatever happens next, so every branch costs the same time.
  const encryptedPassword = await hashPassword(body.password);
  const redirectTo = resolveRedirect(
    ctx.redirects,
    queryParam(redirect.query, 'redirect_to'),
    redirect.referer,
  );
  const repeated = async () => {
    const existing = await findUserByEmail(ctx.db, email);
    if (!existing) return undefined;
    if (ctx.auth.mailerAutoconfirm) throw errors.userAlreadyExists();
    await claimSendSlot(ctx.db, ctx.clock, email, ctx.auth.smtpMaxFrequency);
    if (existing.emailConfirmedAt) {
      // Tell the owner, not the caller: the answer looks like a brand-new sign-up.
      await audit(ctx.db, info, 'user_repeated_signup', existing.id, { provider: 'email' });
      await sendAuthEmail(ctx, 'existing_account', email, undefined, info.language);
      return fakeUserJson(email, userMetadata, ctx.clock());
    }
    // Unconfirmed: send the confirmation again; the caller's password and data are ignored.
    const issued = await ctx.db.transaction(async (tx) => {
      const link = await issueToken(
        ctx,
        tx,
        existing,
        'confirmation_token',
        email,
        redirectTo,
        pkce,
      );
      await audit(tx, info, 'user_confirmation_requested', existing.id, {});
      return link;
    });
    await sendAuthEmail(
      ctx,
      'signup',
      email,
      { ...issued, type: 'signup', redirectTo },
      info.language,
    );
    const fresh = await findUserByEmail(ctx.db, email);
    return userJson(fresh ?? existing, await identitiesOf(ctx.db, existing.id));
  };

  const answer = await repeated();
  if (answer) return answer;

  try {
    if (ctx.auth.mailerAutoconfirm) {
      return await ctx.db.transaction(async (tx) => {
        const user = await signUpUser(tx, info, {
          email: { address: email, confirmed: true },
          encryptedPassword,
          userMetadata,
          now: ctx.clock(),
          aud: ctx.auth.jwtAud,
        });
        return startSession(ctx, tx, user, 'password', info);
      });
    }
    await claimSendSlot(ctx.db, ctx.clock, email, ctx.auth.smtpMaxFrequency);
    const { user, link } = await ctx.db.transaction(async (tx) => {
      const created = await signUpUser(tx, info, {
        email: { address: email, confirmed: false },
        encryptedPassword,
        userMetadata,
        now: ctx.clock(),
        aud: ctx.auth.jwtAud,
      });
      const issued = await issueToken(
        ctx,
        tx,
        created,
        'confirmation_token',
        email,
        redirectTo,
        pkce,
      );
      return { user: created, link: issued };
    });
    await sendAuthEmail(
      ctx,
      'signup',
      email,
      { ...link, type: 'signup', redirectTo },
      info.language,
    );
    const fresh = await findUserByEmail(ctx.db, email);
    return userJson(fresh ?? user, await identitiesOf(ctx.db, user.id));
  } catch (error) {
    // Two sign-ups for one new address at once: the loser is answered as a repeat.
    if (!isUniqueViolation(error)) throw error;
    const again = await repeated();
    if (again) return again;
    throw error;
  }
}
