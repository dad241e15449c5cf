import type { FastifyRequest } from 'fastify';
import type { JWTPayload } from 'jose';
import type { AuthConfig } from '../config.ts';
import { loadUser } from './admin.service.ts';
import { verifyBearer } from './bearer.ts';
import { isUuid } from './body.ts';
import type { AuthContext, RequestInfo } from './context.ts';
import { errors } from './errors.ts';
import { goTrueError } from './guard.ts';
import type { AuthKeys } from './keys.ts';
import { findFactor } from './mfa.repository.ts';
import { deleteFactor } from './mfa.service.ts';

/** GoTrue's default admin roles (GOTRUE_JWT_ADMIN_ROLES). */
const ADMIN_ROLES = ['service_role', 'supabase_admin'];

/**
 * The API keys as GoTrue's gateway uses them: long-lived JWTs signed by our key, with only a
 * role (`anon` for browsers, `service_role` for servers; never ship the latter to a browser),
 * our issuer and audience (the bearer check asks every token for both).
 */
export async function apiKey(
  keys: AuthKeys,
  auth: Pick<AuthConfig, 'jwtIssuer' | 'jwtAud'>,
  role: 'anon' | 'service_role',
  now = new Date(),
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return keys.sign({
    iss: auth.jwtIssuer,
    aud: auth.jwtAud,
    role,
    iat,
    exp: iat + 10 * 365 * 24 * 3600,
  });
}

/**
 * The admin check of /admin/* and /invite: a token that passes the shared bearer check
 * (bearer.ts) whose `role` is an admin role.
 */
export async function authenticateAdmin(
  ctx: AuthContext,
  request: FastifyRequest,
): Promise<JWTPayload> {
  let claims: JWTPayload;
  try {
    ({ claims } = await verifyBearer(ctx, request.headers.authorization));
  } catch (error) {
    throw goTrueError(error);
  }
  if (typeof claims.role !== 'string' || !ADMIN_ROLES.includes(claims.role))
    throw errors.notAdmin();
  return claims;
}

export async function deleteUserFactor(
  ctx: AuthContext,
  userId: string,
  factorId: string,
  info: RequestInfo,
): Promise<{ id: string }> {
  const user = await loadUser(ctx, userId);
  if (!isUuid(factorId)) throw errors.factorNotFound();
  return ctx.db.transaction(async (tx) => {
    const factor = await findFactor(tx, user.id, factorId, { lock: true });
    if (!factor) throw errors.factorNotFound();
    await deleteFactor(ctx, tx, factor, info, null);
    return { id: factor.id };
  });
}
