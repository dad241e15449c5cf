import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { authUsers } from '../db/schema/auth.ts';
import { optionalPassword, optionalString, parseBody, queryParam } from './body.ts';
import { type AuthContext, requestInfo } from './context.ts';
import { errors } from './errors.ts';
import { idTokenGrant } from './oauth/id-token.ts';
import { burnPasswordCheck, checkPassword, hashPassword } from './passwords.ts';
import { assertPhoneEnabled, findUserByPhone, normalisePhone } from './phone.ts';
import { exchangeAuthCode } from './pkce.ts';
import { signInFailures } from './rate-limit.ts';
import { refreshSession, startSession } from './sessions.ts';
import { findUserByEmail, isBanned, normaliseEmail } from './users.ts';

const passwordBody = z.object({
  email: optionalString,
  phone: optionalString,
  password: optionalPassword,
});
const refreshBody = z.object({ refresh_token: optionalString });
const pkceBody = z.object({ auth_code: optionalString, code_verifier: optionalString });

export function tokenRoutes(app: FastifyInstance, ctx: AuthContext): void {
  app.post('/token', async (request) => {
    const info = requestInfo(request);
    await ctx.limits.hit('token', info.ip, ctx.auth.rateLimits.token);
    const grantType = queryParam(request.query, 'grant_type');

    if (grantType === 'password') {
      const body = parseBody(passwordBody, request.body);
      if (!body.password || (!body.email && !body.phone)) {
        throw errors.validation('You must provide either an email or phone number and a password');
      }
      if (!body.email) assertPhoneEnabled(ctx);
      const account = body.email
        ? normaliseEmail(body.email)
        : `phone:${normalisePhone(body.phone ?? '')}`;
      const failures = signInFailures(ctx, account, info.ip);
      await failures.assertUnder();
      const user = body.email
        ? await findUserByEmail(ctx.db, account)
        : await findUserByPhone(ctx.db, normalisePhone(body.phone ?? ''));
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
      if (body.email && !user.emailConfirmedAt) {
        throw errors.emailNotConfirmed();
      }
      if (!body.email && !user.phoneConfirmedAt) {
        throw errors.phoneNotConfirmed();
      }
      const rehashed = check.needsRehash ? await hashPassword(body.password) : undefined;
      const session = await ctx.db.transaction(async (tx) => {
        if (rehashed) {
          // An imported bcrypt hash becomes argon2id on its first successful use.
          await tx
            .update(authUsers)
            .set({ encryptedPassword: rehashed })
            .where(eq(authUsers.id, user.id));
        }
        return startSession(ctx, tx, user, 'password', info);
      });
      if (body.password.length < ctx.auth.passwordMinLength) {
        return {
          ...session,
          weak_password: {
            reasons: ['length'],
            message: `Password should be at least ${ctx.auth.passwordMinLength} characters.`,
          },
        };
      }
      return session;
    }

    if (grantType === 'refresh_token') {
      const body = parseBody(refreshBody, request.body);
      if (!body.refresh_token) {
        throw errors.validation('refresh_token required');
      }
      return refreshSession(ctx, body.refresh_token, info);
    }

    if (grantType === 'pkce') {
      const body = parseBody(pkceBody, request.body);
      if (!body.auth_code || !body.code_verifier) {
        throw errors.validation(
          'invalid request: both auth code and code verifier should be non-empty',
        );
      }
      return exchangeAuthCode(ctx, body.auth_code, body.code_verifier, info);
    }

    if (grantType === 'id_token') return idTokenGrant(ctx, request);

    // Sign-in with a Solana or Ethereum wallet (signInWithWeb3) is not offered.
    if (grantType === 'web3') {
      throw errors.web3Disabled();
    }

    throw errors.invalidCredentials('unsupported_grant_type');
  });
}
