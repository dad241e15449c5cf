import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { authUsers } from '../db/schema/auth.ts';
import { requestLanguage } from '../http/language.ts';
import { audit } from './audit.ts';
import {
  mergeMetadata,
  metadata,
  optionalPassword,
  optionalString,
  parseBody,
  queryParam,
} from './body.ts';
import { type AuthContext, requestInfo } from './context.ts';
import { errors } from './errors.ts';
import { authenticate } from './guard.ts';
import { hasVerifiedFactor } from './mfa.repository.ts';
import { factorsJsonOf } from './mfa-factors.ts';
import { clearTokens, consumeNonce, issueToken, sendAuthEmail } from './one-time-tokens.ts';
import { assertPasswordAcceptable, checkPassword, hashPassword } from './passwords.ts';
import { phoneReauthenticate, preparePhoneChange, requestPhoneChange } from './phone.routes.ts';
import { assertPhoneEnabled } from './phone.ts';
import { pkceFromBody } from './pkce.ts';
import { claimSendSlot } from './rate-limit.ts';
import { resolveRedirect } from './redirect.ts';
import { endSessions } from './sessions.ts';
import {
  findUserByEmail,
  identitiesOf,
  isValidEmail,
  normaliseEmail,
  type UserRow,
  userJson,
} from './users.ts';

const updateBody = z.object({
  email: optionalString,
  phone: optionalString,
  password: optionalPassword,
  nonce: optionalString,
  data: metadata,
  app_metadata: z.unknown().optional(),
  code_challenge: optionalString,
  code_challenge_method: optionalString,
});

/** Sessions older than this need a fresh nonce to change the password. */
const REAUTH_AFTER_MS = 24 * 3_600_000;

export function userRoutes(app: FastifyInstance, ctx: AuthContext): void {
  app.get('/user', async (request) => {
    // The guard checked the audience asked for (X-JWT-AUD) or, by default, ours.
    const { user } = await authenticate(ctx, request);
    return userJson(
      user,
      await identitiesOf(ctx.db, user.id),
      await factorsJsonOf(ctx.db, user.id),
    );
  });

  app.put('/user', async (request) => {
    const info = requestInfo(request);
    const { user, session } = await authenticate(ctx, request);
    const body = parseBody(updateBody, request.body);
    const pkce = pkceFromBody(body);
    if (body.app_metadata !== undefined && body.app_metadata !== null) {
      throw errors.notAdmin();
    }
    const changesEmail = Boolean(body.email && normaliseEmail(body.email) !== user.email);
    // With a verified MFA factor, the address and the password change only at aal2.
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
    const newPhone = body.phone ? await preparePhoneChange(ctx, user, body.phone) : undefined;
    let newEmail: string | undefined;
    if (body.email && normaliseEmail(body.email) !== user.email) {
      newEmail = normaliseEmail(body.email);
      if (!isValidEmail(newEmail)) throw errors.invalidEmail();
      const taken = await findUserByEmail(ctx.db, newEmail);
      if (taken) throw errors.emailExists();
      await claimSendSlot(ctx.db, ctx.clock, newEmail, ctx.auth.smtpMaxFrequency);
    }
    const redirectTo = resolveRedirect(
      ctx.redirects,
      queryParam(request.query, 'redirect_to'),
      request.headers.referer,
    );
    let encryptedPassword: string | undefined;
    if (body.password) {
      assertPasswordAcceptable(body.password, ctx.auth.passwordMinLength);
      const sessionAge = session ? ctx.clock().getTime() - session.createdAt.getTime() : Infinity;
      if (ctx.auth.updatePasswordRequireReauthentication && sessionAge > REAUTH_AFTER_MS) {
        if (!body.nonce) {
          throw errors.reauthenticationNeeded();
        }
        const nonce = body.nonce;
        const checked = await ctx.db.transaction((tx) => consumeNonce(ctx, tx, user, nonce));
        if (checked !== true) throw checked;
      }
      if (user.encryptedPassword) {
        const same = await checkPassword(body.password, user.encryptedPassword);
        if (same.ok) {
          throw errors.samePassword();
        }
      }
      encryptedPassword = await hashPassword(body.password);
    }

    const mails: Array<() => Promise<void>> = [];
    const updated = await ctx.db.transaction(async (tx) => {
      const now = ctx.clock();
      let row: UserRow = user;
      if (newEmail) {
        // Confirmed from the new address, and (secure change) from the current one too.
        const [next] = await tx
          .update(authUsers)
          .set({ emailChange: newEmail, updatedAt: now })
          .where(eq(authUsers.id, user.id))
          .returning();
        row = next as UserRow;
        const toNew = await issueToken(
          ctx,
          tx,
          row,
          'email_change_token_new',
          newEmail,
          redirectTo,
          pkce,
        );
        const address = newEmail;
        mails.push(() =>
          sendAuthEmail(
            ctx,
            'email_change_new',
            address,
            {
              ...toNew,
              type: 'email_change',
              redirectTo,
            },
            requestLanguage(request),
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
              {
                ...toCurrent,
                type: 'email_change',
                redirectTo,
                newEmail: address,
              },
              requestLanguage(request),
            ),
          );
        }
        const [sent] = await tx.select().from(authUsers).where(eq(authUsers.id, user.id));
        row = sent as UserRow;
        await audit(tx, info, 'user_modified', user.id, { change: 'email_requested' });
      }
      if (body.data) {
        const [next] = await tx
          .update(authUsers)
          .set({ userMetadata: mergeMetadata(user.userMetadata, body.data), updatedAt: now })
          .where(eq(authUsers.id, user.id))
          .returning();
        row = next as UserRow;
        await audit(tx, info, 'user_modified', user.id, {});
      }
      if (encryptedPassword) {
        const [next] = await tx
          .update(authUsers)
          .set({ encryptedPassword, updatedAt: now })
          .where(eq(authUsers.id, user.id))
          .returning();
        row = next as UserRow;
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
    return userJson(
      final,
      await identitiesOf(ctx.db, user.id),
      await factorsJsonOf(ctx.db, user.id),
    );
  });

  // Sends a one-time code (the nonce for a password change) to the user's email, or by SMS
  // to a user with only a phone. GoTrue's order: an email, when there is one, must be
  // confirmed (the phone is then not used); otherwise the phone must be.
  app.get('/reauthenticate', async (request) => {
    const info = requestInfo(request);
    await ctx.limits.hit('otp', info.ip, ctx.auth.rateLimits.otp);
    const { user } = await authenticate(ctx, request);
    if (!user.email) {
      if (!user.phone) {
        throw errors.validation(
          'Reauthentication requires the user to have an email or a phone number',
        );
      }
      if (!user.phoneConfirmedAt) {
        throw errors.reauthenticatePhoneNotConfirmed();
      }
      assertPhoneEnabled(ctx);
      return phoneReauthenticate(ctx, info, user, user.phone);
    }
    if (!user.emailConfirmedAt) {
      throw errors.reauthenticateEmailNotConfirmed();
    }
    const email = user.email;
    await claimSendSlot(ctx.db, ctx.clock, email, ctx.auth.smtpMaxFrequency);
    const link = await ctx.db.transaction((tx) =>
      issueToken(ctx, tx, user, 'reauthentication_token', email, ctx.auth.siteUrl),
    );
    await sendAuthEmail(
      ctx,
      'reauthentication',
      email,
      {
        ...link,
        type: 'email',
        redirectTo: ctx.auth.siteUrl,
      },
      requestLanguage(request),
    );
    return {};
  });

  app.post('/logout', async (request, reply) => {
    const info = requestInfo(request);
    const { user, session } = await authenticate(ctx, request);
    const scope = queryParam(request.query, 'scope') ?? 'global';
    if (scope !== 'global' && scope !== 'local' && scope !== 'others') {
      throw errors.validation(`Unsupported logout scope "${scope.slice(0, 20)}"`);
    }
    await ctx.db.transaction(async (tx) => {
      await endSessions(tx, user.id, scope, session?.id);
      await audit(tx, info, 'logout', user.id, { scope, session_id: session?.id ?? null });
    });
    return reply.code(204).send();
  });
}
