import type { FastifyRequest } from 'fastify';
import type { JWTPayload } from 'jose';
import { BearerError, bearerUser, hostedJwksOf, verifyBearer } from '../auth/bearer.ts';
import type { AuthKeys } from '../auth/keys.ts';
import { findUserById } from '../auth/users.ts';
import type { AuthConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { authUsers } from '../db/schema/auth.ts';
import type { Clock } from '../lib/clock.ts';
import { dateTimeFormat } from '../lib/dates.ts';
import { AppError } from '../lib/errors.ts';
import type { Caller } from '../modules/access/caller.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
}

export type CallerDeps = { db: Db; keys: AuthKeys; auth: AuthConfig; clock: Clock };

/** The shared bearer check's failures in /api's words: 401, or 403 for a suspended account. */
function apiError(error: unknown): unknown {
  if (!(error instanceof BearerError)) return error;
  if (error.reason === 'banned') return new AppError('forbidden', 'This account is suspended.');
  return new AppError('unauthorized', 'Your session is not valid any more. Please sign in again.', {
    reason: error.reason,
  });
}

/** An IANA zone the runtime knows, or undefined (then the company's zone decides "today"). */
export function parseTimezone(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) return undefined;
  try {
    return dateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * Resolves callers for /api and /wss through the shared bearer check (auth/bearer.ts). Tokens
 * of a hosted Supabase Auth (its JWKS under HOSTED_AUTH_URL, or the shared JWT_SECRET) belong
 * to users this server has never seen: they get a shadow row in auth.users (no password, no
 * identities; they cannot sign in here) so memberships and tokens can reference them.
 */
export function createCallerResolver(deps: CallerDeps) {
  const bearer = { ...deps, hostedJwks: hostedJwksOf(deps.auth) };

  async function shadowUser(claims: JWTPayload & { email?: unknown; phone?: unknown }) {
    const id = claims.sub as string;
    const email =
      typeof claims.email === 'string' && claims.email ? claims.email.toLowerCase() : null;
    const phone = typeof claims.phone === 'string' && claims.phone ? claims.phone : null;
    const now = deps.clock();
    const row = {
      id,
      aud: deps.auth.jwtAud,
      appMetadata: { provider: 'hosted', providers: ['hosted'] },
      emailConfirmedAt: email ? now : null,
      createdAt: now,
      updatedAt: now,
    };
    // A local account may already hold that address: then the shadow row goes without it.
    await deps.db
      .insert(authUsers)
      .values({ ...row, email, phone })
      .onConflictDoNothing();
    const inserted = await findUserById(deps.db, id);
    if (inserted) return inserted;
    await deps.db.insert(authUsers).values(row).onConflictDoNothing();
    return findUserById(deps.db, id);
  }

  return async function resolveCaller(headers: FastifyRequest['headers']): Promise<Caller> {
    const timezone = parseTimezone(headers['x-user-timezone']);
    if (headers.authorization === undefined) return { kind: 'anonymous', timezone };
    try {
      const { user } = await bearerUser(
        bearer,
        await verifyBearer(bearer, headers.authorization),
        shadowUser,
      );
      return {
        kind: 'user',
        userId: user.id,
        email: user.email,
        phone: user.phone,
        isAnonymous: user.isAnonymous,
        timezone,
      };
    } catch (error) {
      throw apiError(error);
    }
  };
}
