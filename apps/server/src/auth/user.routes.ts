import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { authUsers } from '../db/schema/auth.ts';
import { audit } from './audit.ts';
import { metadata, optionalString, parseBody, queryParam } from './body.ts';
import { type AuthContext, requestInfo } from './context.ts';
import { AuthError, errors } from './errors.ts';
import { authenticate } from './guard.ts';
import { clearTokens } from './one-time-tokens.ts';
import { assertPasswordAcceptable, checkPassword, hashPassword } from './passwords.ts';
import { endSessions } from './sessions.ts';
import { identitiesOf, normaliseEmail, type UserRow, userJson } from './users.ts';

const updateBody = z.object({
  email: optionalString,
  phone: optionalString,
  password: optionalString,
  nonce: optionalString,
  data: metadata,
  app_metadata: z.unknown().optional(),
});

/** `data` merges into user_metadata; a null value removes that key (GoTrue's rule). */
function mergeMetadata(current: Record<string, unknown>, patch: Record<string, unknown>) {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

export function userRoutes(app: FastifyInstance, ctx: AuthContext): void {
  app.get('/user', async (request) => {
    const { user } = await authenticate(ctx, request);
    return userJson(user, await identitiesOf(ctx.db, user.id));
  });

  app.put('/user', async (request) => {
    const info = requestInfo(request);
    const { user, session } = await authenticate(ctx, request);
    const body = parseBody(updateBody, request.body);
    if (body.app_metadata !== undefined && body.app_metadata !== null) {
      throw new AuthError(403, 'not_admin', 'User not allowed');
    }
    if (body.phone) throw errors.phoneDisabled();
    if (body.email && normaliseEmail(body.email) !== user.email) {
      throw new AuthError(
        422,
        'email_change_not_available',
        'Changing the email address is not available yet',
      );
    }
    let encryptedPassword: string | undefined;
    if (body.password) {
      assertPasswordAcceptable(body.password, ctx.auth.passwordMinLength);
      if (user.encryptedPassword) {
        const same = await checkPassword(body.password, user.encryptedPassword);
        if (same.ok) {
          throw new AuthError(
            422,
            'same_password',
            'New password should be different from the old password.',
          );
        }
      }
      encryptedPassword = await hashPassword(body.password);
    }

    const updated = await ctx.db.transaction(async (tx) => {
      const now = ctx.clock();
      let row: UserRow = user;
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
    return userJson(updated, await identitiesOf(ctx.db, user.id));
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
