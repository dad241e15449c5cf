import type { FastifyRequest } from 'fastify';
import { createRemoteJWKSet, decodeProtectedHeader, type JWTPayload, jwtVerify } from 'jose';
import { AuthKeyError, type AuthKeys } from '../auth/keys.ts';
import { findSession } from '../auth/sessions.ts';
import { findUserById, isBanned } from '../auth/users.ts';
import type { AuthConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { authUsers } from '../db/schema/auth.ts';
import type { Clock } from '../lib/clock.ts';
import { AppError } from '../lib/errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who is calling the queue API, from `Authorization: Bearer` and `X-user-timezone`. */
export type Caller =
  | { kind: 'anonymous'; timezone: string | undefined }
  | {
      kind: 'user';
      userId: string;
      email: string | null;
      phone: string | null;
      isAnonymous: boolean;
      timezone: string | undefined;
    };

export type SignedInCaller = Extract<Caller, { kind: 'user' }>;

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
}

export type CallerDeps = { db: Db; keys: AuthKeys; auth: AuthConfig; clock: Clock };

const invalidToken = (reason: string) =>
  new AppError('unauthorized', 'Your session is not valid any more. Please sign in again.', {
    reason,
  });

/** An IANA zone the runtime knows, or undefined (then the company's zone decides "today"). */
export function parseTimezone(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) return undefined;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * Resolves callers for /api. Our own access tokens (JWKS key) must name a live session of an
 * existing user, so logout and bans take effect at once. Tokens of a hosted Supabase Auth
 * (its JWKS under HOSTED_AUTH_URL, or the shared JWT_SECRET) belong to users this server has
 * never seen: they get a shadow row in auth.users (no password, no identities; they cannot
 * sign in here) so memberships and tokens can reference them.
 */
export function createCallerResolver(deps: CallerDeps) {
  const hostedUrl = deps.auth.hostedAuthUrl;
  const hostedJwks = hostedUrl
    ? createRemoteJWKSet(new URL(`${hostedUrl}/.well-known/jwks.json`))
    : undefined;

  async function verify(token: string): Promise<{ claims: JWTPayload; hosted: boolean }> {
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw invalidToken('malformed');
    }
    if (hostedJwks && header.kid !== undefined && header.kid !== deps.keys.kid) {
      try {
        const { payload } = await jwtVerify(token, hostedJwks, {
          issuer: hostedUrl,
          audience: deps.auth.jwtAud,
          algorithms: ['ES256', 'RS256'],
          clockTolerance: 5,
        });
        return { claims: payload, hosted: true };
      } catch {
        throw invalidToken('signature');
      }
    }
    try {
      const claims = await deps.keys.verify(token);
      // Only a hosted project signs with the shared secret; ours are asymmetric.
      return { claims, hosted: header.alg === 'HS256' };
    } catch (error) {
      if (error instanceof AuthKeyError) throw invalidToken(error.message);
      throw error;
    }
  }

  async function shadowUser(claims: JWTPayload & { email?: unknown; phone?: unknown }) {
    const id = claims.sub as string;
    const existing = await findUserById(deps.db, id);
    if (existing) return existing;
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
    const bare = await findUserById(deps.db, id);
    if (!bare) throw invalidToken('user');
    return bare;
  }

  return async function resolveCaller(headers: FastifyRequest['headers']): Promise<Caller> {
    const timezone = parseTimezone(headers['x-user-timezone']);
    const header = headers.authorization;
    if (header === undefined) return { kind: 'anonymous', timezone };
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) throw invalidToken('header');
    const { claims, hosted } = await verify(match[1]);
    if (typeof claims.sub !== 'string' || !UUID.test(claims.sub)) throw invalidToken('sub');

    let user = await findUserById(deps.db, claims.sub);
    if (!user && hosted) user = await shadowUser(claims);
    if (!user) throw invalidToken('user');
    if (!hosted) {
      const sessionId = claims.session_id;
      if (typeof sessionId !== 'string' || !UUID.test(sessionId)) throw invalidToken('session');
      const session = await findSession(deps.db, sessionId);
      if (!session || session.userId !== user.id) throw invalidToken('session');
    }
    if (isBanned(user, deps.clock())) {
      throw new AppError('forbidden', 'This account is suspended.');
    }
    return {
      kind: 'user',
      userId: user.id,
      email: user.email,
      phone: user.phone,
      isAnonymous: user.isAnonymous,
      timezone,
    };
  };
}

/** The signed-in caller, or 401 for anonymous ones. */
export function requireUser(caller: Caller): SignedInCaller {
  if (caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to continue.');
  return caller;
}
