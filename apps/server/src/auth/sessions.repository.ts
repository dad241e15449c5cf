import { and, desc, eq, lt, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { preparedStatement } from '../db/prepared.ts';
import { type AmrEntry, authRefreshTokens, authSessions, authUsers } from '../db/schema/auth.ts';
import { isLiveUser, type UserRow } from './users.repository.ts';

export type SessionRow = typeof authSessions.$inferSelect;
export type RefreshRow = typeof authRefreshTokens.$inferSelect;
export type NewSession = Omit<typeof authSessions.$inferInsert, 'id'>;

export async function insertSession(tx: Tx, values: NewSession): Promise<SessionRow> {
  const [session] = await tx.insert(authSessions).values(values).returning();
  return session as SessionRow;
}

const sessionWithUser = preparedStatement('find_session_with_user', (db) =>
  db
    .select({ session: authSessions, user: authUsers })
    .from(authSessions)
    .leftJoin(authUsers, and(eq(authUsers.id, authSessions.userId), isLiveUser))
    .where(eq(authSessions.id, sql.placeholder('id'))),
);

/**
 * The session and its user, if live, in one statement: what every bearer check reads
 * (bearer.ts), so a request pays one round trip for both.
 */
export async function findSessionWithUser(
  db: Db | Tx,
  id: string,
): Promise<{ session: SessionRow; user: UserRow | undefined } | undefined> {
  const [row] = await sessionWithUser(db, { id });
  return row && { session: row.session, user: row.user ?? undefined };
}

/** The session, locked: concurrent refreshes of one session run one after the other. */
export async function lockSession(tx: Tx, id: string): Promise<SessionRow | undefined> {
  const [session] = await tx
    .select()
    .from(authSessions)
    .where(eq(authSessions.id, id))
    .for('update');
  return session;
}

export async function updateSession(
  tx: Tx,
  id: string,
  changes: Partial<
    Pick<SessionRow, 'aal' | 'factorId' | 'amr' | 'refreshedAt' | 'updatedAt' | 'ip' | 'userAgent'>
  >,
): Promise<SessionRow> {
  const [session] = await tx
    .update(authSessions)
    .set(changes)
    .where(eq(authSessions.id, id))
    .returning();
  return session as SessionRow;
}

export async function deleteSession(tx: Tx, id: string): Promise<void> {
  await tx.delete(authSessions).where(eq(authSessions.id, id));
}

/** Deletes sessions (their refresh tokens cascade): all, only `sessionId`, or all but it. */
export async function endSessions(
  tx: Tx,
  userId: string,
  scope: 'global' | 'local' | 'others',
  sessionId: string | undefined,
): Promise<void> {
  if (scope === 'global' || !sessionId) {
    await tx.delete(authSessions).where(eq(authSessions.userId, userId));
  } else if (scope === 'local') {
    await tx
      .delete(authSessions)
      .where(and(eq(authSessions.userId, userId), eq(authSessions.id, sessionId)));
  } else {
    await tx
      .delete(authSessions)
      .where(and(eq(authSessions.userId, userId), ne(authSessions.id, sessionId)));
  }
}

export async function insertRefreshToken(
  tx: Tx,
  values: Pick<RefreshRow, 'id' | 'tokenHash' | 'sessionId' | 'userId' | 'parentId'>,
  now: Date,
): Promise<void> {
  await tx.insert(authRefreshTokens).values({ ...values, createdAt: now, updatedAt: now });
}

export async function findSessionIdOfRefreshToken(
  tx: Tx,
  tokenHash: string,
): Promise<string | undefined> {
  const [found] = await tx
    .select({ sessionId: authRefreshTokens.sessionId })
    .from(authRefreshTokens)
    .where(eq(authRefreshTokens.tokenHash, tokenHash))
    .limit(1);
  return found?.sessionId;
}

export async function findRefreshToken(tx: Tx, tokenHash: string): Promise<RefreshRow | undefined> {
  const [token] = await tx
    .select()
    .from(authRefreshTokens)
    .where(eq(authRefreshTokens.tokenHash, tokenHash));
  return token;
}

/** The session's newest refresh token not yet revoked. */
export async function findActiveRefreshToken(
  tx: Tx,
  sessionId: string,
): Promise<RefreshRow | undefined> {
  const [active] = await tx
    .select()
    .from(authRefreshTokens)
    .where(and(eq(authRefreshTokens.sessionId, sessionId), eq(authRefreshTokens.revoked, false)))
    .orderBy(desc(authRefreshTokens.createdAt))
    .limit(1);
  return active;
}

export async function revokeRefreshToken(tx: Tx, id: string, now: Date): Promise<void> {
  await tx
    .update(authRefreshTokens)
    .set({ revoked: true, updatedAt: now })
    .where(eq(authRefreshTokens.id, id));
}

export async function revokeRefreshTokensOfSession(
  tx: Tx,
  sessionId: string,
  now: Date,
): Promise<void> {
  await tx
    .update(authRefreshTokens)
    .set({ revoked: true, updatedAt: now })
    .where(and(eq(authRefreshTokens.sessionId, sessionId), eq(authRefreshTokens.revoked, false)));
}

/** Revoked refresh tokens kept for reuse detection, once older than `before`. */
export async function deleteRevokedRefreshTokensBefore(db: Db, before: Date): Promise<void> {
  await db
    .delete(authRefreshTokens)
    .where(and(eq(authRefreshTokens.revoked, true), lt(authRefreshTokens.updatedAt, before)));
}

export type { AmrEntry };
