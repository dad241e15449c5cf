import { createHmac, randomUUID } from 'node:crypto';
import type { Tx } from '../db/client.ts';
import { audit } from './audit.repository.ts';
import type { AuthContext, RequestInfo } from './context.ts';
import { sha256Hex } from './crypto.ts';
import { errors } from './errors.ts';
import { factorsJsonOf } from './mfa-factors.ts';
import {
  type AmrEntry,
  deleteSession,
  findActiveRefreshToken,
  findRefreshToken,
  findSessionIdOfRefreshToken,
  insertRefreshToken,
  insertSession,
  lockSession,
  revokeRefreshToken,
  revokeRefreshTokensOfSession,
  type SessionRow,
  updateSession,
} from './sessions.repository.ts';
import { updateUser } from './users.repository.ts';
import { findUserById, identitiesOf, isBanned, type UserRow, userJson } from './users.ts';

export { endSessions, findSessionWithUser, type SessionRow } from './sessions.repository.ts';

/**
 * The refresh token handed out for a row: an HMAC of the row id under a key derived from the
 * signing key. The database keeps only SHA-256 of it, yet the server can hand the current
 * token out again (the "parent of the active token" rule) without storing it.
 */
function refreshTokenFor(ctx: AuthContext, rowId: string): string {
  return createHmac('sha256', ctx.keys.hmacKey).update(`refresh:${rowId}`).digest('base64url');
}

/** A new refresh token of the session, stored as its hash; the token itself is returned. */
async function newRefreshToken(
  ctx: AuthContext,
  tx: Tx,
  session: SessionRow,
  parentId: string | null,
  now: Date,
): Promise<string> {
  const id = randomUUID();
  const token = refreshTokenFor(ctx, id);
  const hash = sha256Hex(token);
  await insertRefreshToken(
    tx,
    { id, tokenHash: hash, sessionId: session.id, userId: session.userId, parentId },
    now,
  );
  return token;
}

async function accessTokenFor(ctx: AuthContext, user: UserRow, session: SessionRow, now: Date) {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + ctx.auth.jwtExp;
  const token = await ctx.keys.sign({
    iss: ctx.auth.jwtIssuer,
    sub: user.id,
    aud: user.aud,
    exp,
    iat,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.appMetadata,
    user_metadata: user.userMetadata,
    role: user.role,
    aal: session.aal,
    amr: [...session.amr].sort((a, b) => b.timestamp - a.timestamp),
    session_id: session.id,
    is_anonymous: user.isAnonymous,
  });
  return { token, exp };
}

async function sessionJson(
  ctx: AuthContext,
  tx: Tx,
  user: UserRow,
  session: SessionRow,
  refreshToken: string,
  now: Date,
) {
  const { token, exp } = await accessTokenFor(ctx, user, session, now);
  return {
    access_token: token,
    token_type: 'bearer' as const,
    expires_in: ctx.auth.jwtExp,
    expires_at: exp,
    refresh_token: refreshToken,
    user: userJson(user, await identitiesOf(tx, user.id), await factorsJsonOf(tx, user.id)),
  };
}

export type SessionJson = Awaited<ReturnType<typeof sessionJson>>;

/** A new session (aal1) after a first-factor sign-in by `method`. */
export async function startSession(
  ctx: AuthContext,
  tx: Tx,
  user: UserRow,
  method: string,
  info: RequestInfo,
): Promise<SessionJson> {
  const now = ctx.clock();
  const amr: AmrEntry[] = [{ method, timestamp: Math.floor(now.getTime() / 1000) }];
  const session = await insertSession(tx, {
    userId: user.id,
    aal: 'aal1',
    amr,
    userAgent: info.userAgent,
    ip: info.ip,
    notAfter: ctx.auth.sessionsTimebox
      ? new Date(now.getTime() + ctx.auth.sessionsTimebox * 1000)
      : null,
    refreshedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  const signedIn = await updateUser(tx, user.id, { lastSignInAt: now });
  const refreshToken = await newRefreshToken(ctx, tx, session, null, now);
  await audit(tx, info, 'login', user.id, { method, session_id: session.id });
  return sessionJson(ctx, tx, signedIn, session, refreshToken, now);
}

/**
 * After a verified MFA challenge: the *same* session becomes aal2 (an aal2 session stays
 * aal2), records the factor and gains the method in its amr; its refresh tokens are revoked
 * and a new one is issued (an old one presented later falls under the reuse rules).
 */
export async function elevateSession(
  ctx: AuthContext,
  tx: Tx,
  user: UserRow,
  session: SessionRow,
  factorId: string,
  method: string,
  info: RequestInfo,
): Promise<SessionJson> {
  const now = ctx.clock();
  const timestamp = Math.floor(now.getTime() / 1000);
  const amr: AmrEntry[] = [
    { method, timestamp },
    ...session.amr.filter((entry) => entry.method !== method),
  ];
  const elevated = await updateSession(tx, session.id, {
    aal: 'aal2',
    factorId,
    amr,
    refreshedAt: now,
    updatedAt: now,
  });
  await revokeRefreshTokensOfSession(tx, session.id, now);
  const refreshToken = await newRefreshToken(ctx, tx, elevated, null, now);
  await audit(tx, info, 'mfa_verified', user.id, { session_id: session.id, factor_id: factorId });
  return sessionJson(ctx, tx, user, elevated, refreshToken, now);
}

/**
 * Refresh-token rotation (CONTRACT.md §3). The session row is locked first, so concurrent
 * refreshes of one session run one after the other, on PGlite and on PostgreSQL alike.
 * Reuse outside the rules revokes the whole session; that commits although the call fails.
 */
export async function refreshSession(
  ctx: AuthContext,
  presented: string,
  info: RequestInfo,
): Promise<SessionJson> {
  const outcome = await ctx.db.transaction(async (tx) => {
    const tokenHash = sha256Hex(presented);
    const sessionId = await findSessionIdOfRefreshToken(tx, tokenHash);
    if (!sessionId) return { error: errors.refreshTokenNotFound() };
    const session = await lockSession(tx, sessionId);
    if (!session) return { error: errors.refreshTokenNotFound() };
    // Re-read under the lock: another refresh may have rotated it meanwhile.
    const token = await findRefreshToken(tx, tokenHash);
    if (!token) return { error: errors.refreshTokenNotFound() };

    const now = ctx.clock();
    const user = await findUserById(tx, session.userId);
    if (!user) return { error: errors.refreshTokenNotFound() };
    if (isBanned(user, now)) return { error: errors.userBanned() };
    const idleFor = now.getTime() - (session.refreshedAt ?? session.createdAt).getTime();
    const idle =
      ctx.auth.sessionsInactivityTimeout > 0 && idleFor > ctx.auth.sessionsInactivityTimeout * 1000;
    if (idle || (session.notAfter && session.notAfter.getTime() <= now.getTime())) {
      return { error: errors.sessionExpired() };
    }

    let refreshToken: string;
    if (!token.revoked) {
      await revokeRefreshToken(tx, token.id, now);
      refreshToken = await newRefreshToken(ctx, tx, session, token.id, now);
    } else {
      const active = await findActiveRefreshToken(tx, session.id);
      const revokedFor = now.getTime() - token.updatedAt.getTime();
      if (active && active.parentId === token.id) {
        // The client lost the answer to its last refresh, or another tab was first.
        refreshToken = refreshTokenFor(ctx, active.id);
      } else if (revokedFor < ctx.auth.refreshTokenReuseInterval * 1000) {
        refreshToken = await newRefreshToken(ctx, tx, session, token.id, now);
      } else {
        await deleteSession(tx, session.id);
        await audit(tx, info, 'token_revoked', user.id, {
          reason: 'refresh_token_reuse',
          session_id: session.id,
        });
        return { error: errors.refreshTokenAlreadyUsed() };
      }
    }
    const refreshed = await updateSession(tx, session.id, {
      refreshedAt: now,
      updatedAt: now,
      ip: info.ip,
      userAgent: info.userAgent,
    });
    await audit(tx, info, 'token_refreshed', user.id, { session_id: session.id });
    return {
      session: await sessionJson(ctx, tx, user, refreshed, refreshToken, now),
    };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.session;
}
