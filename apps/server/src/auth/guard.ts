import type { FastifyRequest } from 'fastify';
import type { JWTPayload } from 'jose';
import { BearerError, bearerUser, verifyBearer } from './bearer.ts';
import type { AuthContext } from './context.ts';
import { errors } from './errors.ts';
import type { SessionRow } from './sessions.service.ts';
import type { UserRow } from './users.ts';

export type Authenticated = { user: UserRow; session: SessionRow | undefined; claims: JWTPayload };

/** The shared bearer check's failures in GoTrue's words (/auth/v1 and its admin API). */
export function goTrueError(error: unknown): unknown {
  if (!(error instanceof BearerError)) return error;
  switch (error.reason) {
    case 'missing':
    case 'header':
      return errors.noAuthorization();
    case 'user':
      return errors.userNotFound();
    case 'session':
      return errors.sessionNotFound();
    case 'banned':
      return errors.userBanned(403);
    default:
      return errors.badJwt(error.message);
  }
}

/**
 * GoTrue's bearer check (bearer.ts): the audience asked for is X-JWT-AUD, or ours by default.
 */
export async function authenticate(
  ctx: AuthContext,
  request: FastifyRequest,
): Promise<Authenticated> {
  const header = request.headers['x-jwt-aud'];
  const audience = typeof header === 'string' && header ? header : ctx.auth.jwtAud;
  try {
    const { user, session, claims } = await bearerUser(
      ctx,
      await verifyBearer(ctx, request.headers.authorization, audience),
    );
    return { user, session, claims };
  } catch (error) {
    throw goTrueError(error);
  }
}
