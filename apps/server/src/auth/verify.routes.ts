import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { isUniqueViolation } from '../db/refusals.ts';
import { requestLanguage } from '../http/language.ts';
import { audit } from './audit.ts';
import { metadata, optionalString, parseBody, queryParam } from './body.ts';
import { type AuthContext, afterAnswer, type RequestInfo, requestInfo } from './context.ts';
import { AuthError, errors } from './errors.ts';
import {
  consumeByCode,
  consumeByLink,
  deliverAuthEmail,
  type EmailVerifyType,
  issueToken,
  isVerifyType,
  pendingTokens,
  sendAuthEmail,
  tokenTypesFor,
} from './one-time-tokens.ts';
import { phoneOtp, phoneResend, phoneVerify } from './phone.routes.ts';
import { normalisePhone } from './phone.ts';
import { authenticationMethodFor, issueAuthCode, pkceFromBody } from './pkce.ts';
import { claimSendSlot, underWrongCodeLimit } from './rate-limit.ts';
import { isAllowedRedirect, resolveRedirect } from './redirect.ts';
import { type SessionJson, startSession } from './sessions.ts';
import { createUser } from './users.service.ts';
import {
  applyEmailChange,
  confirmEmail,
  findUserByEmail,
  findUserByPendingEmail,
  isBanned,
  isValidEmail,
  normaliseEmail,
} from './users.ts';

const verifyBody = z.object({
  type: optionalString,
  email: optionalString,
  phone: optionalString,
  token: optionalString,
  token_hash: optionalString,
});
const otpBody = z.object({
  email: optionalString,
  phone: optionalString,
  data: metadata,
  create_user: z.boolean().nullish(),
  channel: optionalString,
  code_challenge: optionalString,
  code_challenge_method: optionalString,
});
const emailBody = z.object({
  email: optionalString,
  phone: optionalString,
  type: optionalString,
  code_challenge: optionalString,
  code_challenge_method: optionalString,
});

/** The amr method a verification type signs in with. */
const methodOf: Record<EmailVerifyType, string> = {
  signup: 'otp',
  email: 'otp',
  magiclink: 'magiclink',
  recovery: 'recovery',
  invite: 'invite',
  email_change: 'email_change',
};

function validEmail(raw: string | null | undefined): string {
  if (!raw) throw errors.validation('An email address is required');
  const email = normaliseEmail(raw);
  if (!isValidEmail(email)) throw errors.invalidEmail();
  return email;
}

export function verifyRoutes(app: FastifyInstance, ctx: AuthContext): void {
  /**
   * Verifies in one transaction that commits failed attempts too, then signs in. The first
   * half of a secure email change answers with a message instead of a session.
   */
  async function verify(
    info: RequestInfo,
    type: EmailVerifyType,
    by: { linkToken: string } | { email: string; code: string },
    mode: 'session' | 'pkce' = 'session',
  ): Promise<
    | { session: SessionJson; redirectTo: string | null }
    | { message: string; redirectTo: string | null }
    | { authCode: string; redirectTo: string | null }
  > {
    const run = () =>
      ctx.db.transaction(async (tx) => {
        const verified =
          'linkToken' in by
            ? await consumeByLink(ctx, tx, by.linkToken, type)
            : await consumeByCode(ctx, tx, by.email, by.code, type);
        if (verified instanceof AuthError) return verified;
        const now = ctx.clock();
        if (isBanned(verified.user, now)) return errors.userBanned();
        let user = verified.user;
        if (type === 'email_change') {
          const waiting = await pendingTokens(tx, user.id, tokenTypesFor.email_change);
          if (waiting.length > 0) {
            return { message: EMAIL_CHANGE_HALF, redirectTo: verified.redirectTo };
          }
          if (!user.emailChange) return errors.otpExpired();
          const taken = await findUserByEmail(tx, user.emailChange);
          if (taken && taken.id !== user.id) return errors.emailExists();
          user = await applyEmailChange(tx, user, now);
          await audit(tx, info, 'user_modified', user.id, { change: 'email' });
        } else {
          user = await confirmEmail(tx, user, now);
        }
        if (mode === 'pkce') {
          // The app that started the flow holds the verifier; it exchanges this code.
          const authCode = await issueAuthCode(ctx, tx, user.id, authenticationMethodFor(type));
          if (!authCode) {
            return errors.flowStateNotFound();
          }
          return { authCode, redirectTo: verified.redirectTo };
        }
        return {
          session: await startSession(ctx, tx, user, methodOf[type], info),
          redirectTo: verified.redirectTo,
        };
      });
    let outcome: Awaited<ReturnType<typeof run>>;
    try {
      outcome = await run();
    } catch (error) {
      // Two accounts confirming a change to one new address at once: the second loses.
      if (isUniqueViolation(error)) throw errors.emailExists();
      throw error;
    }
    if (outcome instanceof AuthError) throw outcome;
    return outcome;
  }

  app.post('/verify', async (request) => {
    const info = requestInfo(request);
    await ctx.limits.hit('verify', info.ip, ctx.auth.rateLimits.verify);
    const body = parseBody(verifyBody, request.body);
    if (!isVerifyType(body.type)) {
      if (body.type === 'sms' || body.type === 'phone_change') {
        // SMS carry codes only: there is no link (token_hash) to verify.
        if (body.token_hash) throw errors.otpExpired();
        if (!body.phone || !body.token) {
          throw errors.validation('Verify requires a phone number and a token');
        }
        const { phone, token } = body;
        const type = body.type;
        return underWrongCodeLimit(ctx, `phone:${normalisePhone(phone)}`, info.ip, () =>
          phoneVerify(ctx, info, type, phone, token),
        );
      }
      throw errors.validation('Verify requires a verification type');
    }
    if (body.token_hash) {
      if (body.email || body.phone) {
        throw errors.validation('Only the token_hash and type should be provided');
      }
      return answer(await verify(info, body.type, { linkToken: body.token_hash }));
    }
    if (!body.email || !body.token) {
      throw errors.validation('Verify requires either a token_hash or an email and a token');
    }
    const email = normaliseEmail(body.email);
    const { type, token } = body;
    return answer(
      await underWrongCodeLimit(ctx, email, info.ip, () =>
        verify(info, type, { email, code: token }),
      ),
    );
  });

  // The link in an email: a browser navigation, answered with a redirect either way.
  app.get('/verify', async (request, reply) => {
    const info = requestInfo(request);
    const type = queryParam(request.query, 'type');
    const token = queryParam(request.query, 'token');
    const requested = queryParam(request.query, 'redirect_to');
    const target = resolveRedirect(ctx.redirects, requested);
    const pkce = token?.startsWith('pkce_') ?? false;
    const go = (fragment: Record<string, string>) =>
      pkce
        ? redirectWithQueryAndFragment(reply, target, fragment)
        : redirectWithFragment(reply, target, { ...fragment, sb: '' });
    try {
      await ctx.limits.hit('verify', info.ip, ctx.auth.rateLimits.verify);
      if (!isVerifyType(type) || !token) throw errors.otpExpired();
      const verified = await verify(info, type, { linkToken: token }, pkce ? 'pkce' : 'session');
      // Without a redirect_to in the link, go where the link was issued for.
      const { redirectTo } = verified;
      const destination =
        !requested && redirectTo && isAllowedRedirect(redirectTo, ctx.redirects)
          ? redirectTo
          : target;
      if ('message' in verified) {
        return redirectWithFragment(reply, destination, { message: verified.message, sb: '' });
      }
      if ('authCode' in verified) {
        const url = new URL(destination);
        url.searchParams.set('code', verified.authCode);
        return reply.header('cache-control', 'no-store').redirect(url.toString(), 303);
      }
      const { session } = verified;
      return redirectWithFragment(reply, destination, {
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
      return go({
        error: error.status === 429 ? 'server_error' : 'access_denied',
        error_code: error.code,
        error_description: description,
      });
    }
  });

  app.post('/otp', async (request) => {
    const info = requestInfo(request);
    await ctx.limits.hit('otp', info.ip, ctx.auth.rateLimits.otp);
    const body = parseBody(otpBody, request.body);
    const pkce = pkceFromBody(body);
    if (!body.email && body.phone) return phoneOtp(ctx, info, { ...body, phone: body.phone });
    const email = validEmail(body.email);
    const redirectTo = resolveRedirect(
      ctx.redirects,
      queryParam(request.query, 'redirect_to'),
      request.headers.referer,
    );
    const mayCreate = (body.create_user ?? true) && !ctx.auth.disableSignup;
    if (!mayCreate && !ctx.auth.enumerationProtection && !(await findUserByEmail(ctx.db, email))) {
      throw errors.otpSignupDisabled();
    }
    // Known or not, one message per address per interval: the 429 reveals nothing. The rest
    // depends on the account, so it runs after the answer.
    await claimSendSlot(ctx.db, ctx.clock, email, ctx.auth.smtpMaxFrequency);
    await ctx.emailQuota.take();
    afterAnswer(ctx, 'otp email', async () => {
      const user = await findUserByEmail(ctx.db, email);
      if (!user && !mayCreate) {
        // GoTrue answers 422 otp_disabled here, which tells anyone the address has no account.
        await deliverAuthEmail(ctx, 'no_account', email, undefined, requestLanguage(request));
        return;
      }
      const issue = () =>
        ctx.db.transaction(async (tx) => {
          const now = ctx.clock();
          if (!user?.emailConfirmedAt) {
            const target =
              user ??
              (await createUser(tx, {
                email: { address: email, confirmed: false },
                encryptedPassword: null,
                userMetadata: body.data ?? {},
                now,
                aud: ctx.auth.jwtAud,
              }));
            if (!user) await audit(tx, info, 'user_signedup', target.id, { provider: 'email' });
            const issued = await issueToken(
              ctx,
              tx,
              target,
              'confirmation_token',
              email,
              redirectTo,
              pkce,
            );
            return { kind: 'signup' as const, type: 'signup' as const, link: issued };
          }
          const issued = await issueToken(
            ctx,
            tx,
            user,
            'magiclink_token',
            email,
            redirectTo,
            pkce,
          );
          await audit(tx, info, 'magiclink_requested', user.id, {});
          return { kind: 'magiclink' as const, type: 'magiclink' as const, link: issued };
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
        {
          ...issued.link,
          type: issued.type,
          redirectTo,
        },
        requestLanguage(request),
      );
    });
    return {};
  });

  app.post('/recover', async (request) => {
    const info = requestInfo(request);
    await ctx.limits.hit('otp', info.ip, ctx.auth.rateLimits.otp);
    const body = parseBody(emailBody, request.body);
    const pkce = pkceFromBody(body);
    const email = validEmail(body.email);
    const redirectTo = resolveRedirect(
      ctx.redirects,
      queryParam(request.query, 'redirect_to'),
      request.headers.referer,
    );
    // Known or not, the same work before the answer; the account's part runs after it.
    await claimSendSlot(ctx.db, ctx.clock, email, ctx.auth.smtpMaxFrequency);
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
        requestLanguage(request),
      );
    });
    return {};
  });

  app.post('/resend', async (request) => {
    const info = requestInfo(request);
    await ctx.limits.hit('otp', info.ip, ctx.auth.rateLimits.otp);
    const body = parseBody(emailBody, request.body);
    const pkce = pkceFromBody(body);
    if (body.type === 'sms' || body.type === 'phone_change') {
      return phoneResend(ctx, info, body.type, body.phone);
    }
    if (body.type !== 'signup' && body.type !== 'email_change') {
      throw errors.validation(
        'Missing one of these types: signup, email_change, sms, phone_change',
      );
    }
    const email = validEmail(body.email);
    const redirectTo = resolveRedirect(
      ctx.redirects,
      queryParam(request.query, 'redirect_to'),
      request.headers.referer,
    );
    await claimSendSlot(ctx.db, ctx.clock, email, ctx.auth.smtpMaxFrequency);
    if (body.type === 'email_change') {
      // Again to the new address of a pending change; nothing for anyone else.
      const changing = await findUserByPendingEmail(ctx.db, email);
      if (changing) {
        const link = await ctx.db.transaction((tx) =>
          issueToken(ctx, tx, changing, 'email_change_token_new', email, redirectTo, pkce),
        );
        await sendAuthEmail(
          ctx,
          'email_change_new',
          email,
          {
            ...link,
            type: 'email_change',
            redirectTo,
          },
          requestLanguage(request),
        );
      }
      return {};
    }
    const user = await findUserByEmail(ctx.db, email);
    if (user && !user.emailConfirmedAt) {
      const link = await ctx.db.transaction(async (tx) => {
        const issued = await issueToken(
          ctx,
          tx,
          user,
          'confirmation_token',
          email,
          redirectTo,
          pkce,
        );
        await audit(tx, info, 'user_confirmation_requested', user.id, {});
        return issued;
      });
      await sendAuthEmail(
        ctx,
        'signup',
        email,
        { ...link, type: 'signup', redirectTo },
        requestLanguage(request),
      );
    }
    return {};
  });
}

const EMAIL_CHANGE_HALF =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

function answer(
  verified: { session: SessionJson } | { message: string } | { authCode: string },
): SessionJson | { msg: string; code: number } {
  if ('message' in verified) return { msg: verified.message, code: 200 };
  if ('authCode' in verified) throw errors.otpExpired(); // not reached: POST never asks for PKCE
  return verified.session;
}

/** PKCE errors go in the query (which the app reads) and the fragment (GoTrue does both). */
function redirectWithQueryAndFragment(
  reply: FastifyReply,
  target: string,
  params: Record<string, string>,
): FastifyReply {
  const url = new URL(target);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  url.hash = new URLSearchParams({ ...params, sb: '' }).toString();
  return reply.header('cache-control', 'no-store').redirect(url.toString(), 303);
}

function redirectWithFragment(
  reply: FastifyReply,
  target: string,
  fragment: Record<string, string>,
): FastifyReply {
  const base = target.split('#', 1)[0] as string;
  return reply
    .header('cache-control', 'no-store')
    .redirect(`${base}#${new URLSearchParams(fragment).toString()}`, 303);
}
