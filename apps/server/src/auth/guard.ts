import type { FastifyRequest } from 'fastify';
import type { JWTPayload } from 'jose';
import type { AuthContext } from './context.ts';
import { errors } from './errors.ts';
import { AuthKeyError } from './keys.ts';
import { findSession, type SessionRow } from './sessions.ts';
import { findUserById, isBanned, type UserRow } from './users.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Authenticated = { user: UserRow; session: SessionRow | undefined; claims: JWTPayload };

/**
 * GoTrue's bearer check: a token signed by one of our keys (algorithm pinned per key), not
 * expired, for an existing user, and — when it names a session — for a session that still
 * exists, which is how logout and password changes revoke unexpired access tokens.
 */
export async function authenticate(
  ctx: AuthContext,
  request: FastifyRequest,
): Promise<Authenticated> {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match?.[1]) throw errors.noAuthorization();
  let claims: JWTPayload;
  try {
    claims = await ctx.keys.verify(match[1]);
  } catch (error) {
    if (error instanceof AuthKeyError) throw errors.badJwt(error.message);
    throw error;
  }
  if (typeof claims.sub !== 'string' || !UUID.test(claims.sub)) {
    throw errors.badJwt('invalid claim: sub claim must be a UUID');
  }
  const user = await findUserById(ctx.db, claims.sub);
  if (!user) throw errors.userNotFound();
  let session: SessionRow | undefined;
  if (claims.session_id !== undefined) {
    if (typeof claims.session_id !== 'string' || !UUID.test(claims.session_id)) {
      throw errors.sessionNotFound();
    }
    session = await findSession(ctx.db, claims.session_id);
    if (!session || session.userId !== user.id) throw errors.sessionNotFound();
  }
  if (isBanned(user, ctx.clock())) throw errors.userBanned(403);
  return { user, session, claims };
}
