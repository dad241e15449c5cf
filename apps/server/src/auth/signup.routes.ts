import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isUniqueViolation } from '../db/refusals.ts';
import { requestLanguage } from '../http/language.ts';
import { audit } from './audit.ts';
import { metadata, optionalPassword, optionalString, parseBody, queryParam } from './body.ts';
import { type AuthContext, requestInfo } from './context.ts';
import { errors } from './errors.ts';
import { issueToken, sendAuthEmail } from './one-time-tokens.ts';
import { assertPasswordAcceptable, hashPassword } from './passwords.ts';
import { phoneSignup } from './phone-signup.service.ts';
import { pkceFromBody } from './pkce.ts';
import { claimSendSlot } from './rate-limit.ts';
import { resolveRedirect } from './redirect.ts';
import { startSession } from './sessions.ts';
import {
  createAnonymousUser,
  createEmailUser,
  fakeUserJson,
  findUserByEmail,
  identitiesOf,
  isValidEmail,
  normaliseEmail,
  userJson,
} from './users.ts';

const signupBody = z.object({
  email: optionalString,
  phone: optionalString,
  password: optionalPassword,
  data: metadata,
  channel: optionalString,
  code_challenge: optionalString,
  code_challenge_method: optionalString,
});

export function signupRoutes(app: FastifyInstance, ctx: AuthContext): void {
  app.post('/signup', async (request) => {
    const info = requestInfo(request);
    await ctx.limits.hit('otp', info.ip, ctx.auth.rateLimits.otp);
    const body = parseBody(signupBody, request.body);
    const userMetadata = body.data ?? {};

    if (!body.email && !body.phone) {
      if (!ctx.auth.anonymousSignInsEnabled) {
        throw errors.anonymousDisabled();
      }
      if (ctx.auth.disableSignup) {
        throw errors.signupDisabled();
      }
      return ctx.db.transaction(async (tx) => {
        const user = await createAnonymousUser(tx, {
          userMetadata,
          now: ctx.clock(),
          aud: ctx.auth.jwtAud,
        });
        await audit(tx, info, 'user_signedup', user.id, { provider: 'anonymous' });
        return startSession(ctx, tx, user, 'anonymous', info);
      });
    }
    if (ctx.auth.disableSignup) {
      throw errors.signupDisabled();
    }
    if (!body.email) {
      return phoneSignup(ctx, info, { ...body, phone: body.phone ?? '' }, userMetadata);
    }
    const email = normaliseEmail(body.email);
    if (!isValidEmail(email)) throw errors.invalidEmail();
    if (!body.password) throw errors.validation('Signup requires a valid password');
    assertPasswordAcceptable(body.password, ctx.auth.passwordMinLength);
    const pkce = pkceFromBody(body);
    // Hash whatever happens next, so every branch costs the same time.
    const encryptedPassword = await hashPassword(body.password);
    const redirectTo = resolveRedirect(
      ctx.redirects,
      queryParam(request.query, 'redirect_to'),
      request.headers.referer,
    );

    const repeated = async () => {
      const existing = await findUserByEmail(ctx.db, email);
      if (!existing) return undefined;
      if (ctx.auth.mailerAutoconfirm) {
        throw errors.userAlreadyExists();
      }
      await claimSendSlot(ctx.db, ctx.clock, email, ctx.auth.smtpMaxFrequency);
      if (existing.emailConfirmedAt) {
        // Tell the owner, not the caller: the answer looks like a brand-new sign-up.
        await audit(ctx.db, info, 'user_repeated_signup', existing.id, { provider: 'email' });
        await sendAuthEmail(ctx, 'existing_account', email, undefined, requestLanguage(request));
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
        requestLanguage(request),
      );
      const fresh = await findUserByEmail(ctx.db, email);
      return userJson(fresh ?? existing, await identitiesOf(ctx.db, existing.id));
    };

    const answer = await repeated();
    if (answer) return answer;

    try {
      if (ctx.auth.mailerAutoconfirm) {
        return await ctx.db.transaction(async (tx) => {
          const now = ctx.clock();
          const user = await createEmailUser(tx, {
            email,
            encryptedPassword,
            userMetadata,
            confirmedAt: now,
            now,
            aud: ctx.auth.jwtAud,
          });
          await audit(tx, info, 'user_signedup', user.id, { provider: 'email' });
          return startSession(ctx, tx, user, 'password', info);
        });
      }
      await claimSendSlot(ctx.db, ctx.clock, email, ctx.auth.smtpMaxFrequency);
      const { user, link } = await ctx.db.transaction(async (tx) => {
        const now = ctx.clock();
        const created = await createEmailUser(tx, {
          email,
          encryptedPassword,
          userMetadata,
          confirmedAt: null,
          now,
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
        await audit(tx, info, 'user_signedup', created.id, { provider: 'email' });
        return { user: created, link: issued };
      });
      await sendAuthEmail(
        ctx,
        'signup',
        email,
        { ...link, type: 'signup', redirectTo },
        requestLanguage(request),
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
  });
}
