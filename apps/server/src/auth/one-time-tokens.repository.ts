import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { authOneTimeTokens, authUsers, type OneTimeTokenType } from '../db/schema/auth.ts';

export type { OneTimeTokenType };

type Queryable = Db | Tx;
type TokenRow = typeof authOneTimeTokens.$inferSelect;
type SentAt = Pick<
  Partial<typeof authUsers.$inferInsert>,
  | 'recoverySentAt'
  | 'confirmationSentAt'
  | 'emailChangeSentAt'
  | 'reauthenticationSentAt'
  | 'invitedAt'
  | 'phoneChangeSentAt'
>;

/** Replaces the user's token of this type with `values`. */
export async function replaceToken(
  tx: Tx,
  values: typeof authOneTimeTokens.$inferInsert,
): Promise<void> {
  await tx
    .delete(authOneTimeTokens)
    .where(
      and(
        eq(authOneTimeTokens.userId, values.userId),
        eq(authOneTimeTokens.tokenType, values.tokenType),
      ),
    );
  await tx.insert(authOneTimeTokens).values(values);
}

/** Records when a message of a kind was last sent to the user (`confirmation_sent_at`, ...). */
export async function setSentAt(tx: Tx, userId: string, sentAt: SentAt): Promise<void> {
  await tx.update(authUsers).set(sentAt).where(eq(authUsers.id, userId));
}

/** The token with this link hash, locked. */
export async function lockTokenByHash(tx: Tx, tokenHash: string): Promise<TokenRow | undefined> {
  const [row] = await tx
    .select()
    .from(authOneTimeTokens)
    .where(eq(authOneTimeTokens.tokenHash, tokenHash))
    .for('update');
  return row;
}

/** The user's tokens of these types sent to `address`, locked. */
export async function lockTokensSentTo(
  tx: Tx,
  userId: string,
  types: OneTimeTokenType[],
  address: string,
): Promise<TokenRow[]> {
  return tx
    .select()
    .from(authOneTimeTokens)
    .where(
      and(
        eq(authOneTimeTokens.userId, userId),
        inArray(authOneTimeTokens.tokenType, types),
        eq(authOneTimeTokens.relatesTo, address),
      ),
    )
    .for('update');
}

/** The user's token of one type, locked. */
export async function lockTokenOfType(
  tx: Tx,
  userId: string,
  tokenType: OneTimeTokenType,
): Promise<TokenRow | undefined> {
  const [row] = await tx
    .select()
    .from(authOneTimeTokens)
    .where(and(eq(authOneTimeTokens.userId, userId), eq(authOneTimeTokens.tokenType, tokenType)))
    .for('update');
  return row;
}

export async function deleteToken(tx: Tx, id: string): Promise<void> {
  await tx.delete(authOneTimeTokens).where(eq(authOneTimeTokens.id, id));
}

export async function countWrongAttempt(tx: Tx, id: string): Promise<void> {
  await tx
    .update(authOneTimeTokens)
    .set({ attempts: sql`${authOneTimeTokens.attempts} + 1` })
    .where(eq(authOneTimeTokens.id, id));
}

/** The user's pending tokens of these types (an email change waits for both halves). */
export async function pendingTokens(db: Queryable, userId: string, types: OneTimeTokenType[]) {
  return db
    .select({ id: authOneTimeTokens.id })
    .from(authOneTimeTokens)
    .where(and(eq(authOneTimeTokens.userId, userId), inArray(authOneTimeTokens.tokenType, types)));
}

/** Clears every pending one-time token of a user (after a password change). */
export async function clearTokens(tx: Tx, userId: string): Promise<void> {
  await tx.delete(authOneTimeTokens).where(eq(authOneTimeTokens.userId, userId));
}

export async function deleteExpiredTokens(db: Db, now: Date): Promise<void> {
  await db.delete(authOneTimeTokens).where(lt(authOneTimeTokens.expiresAt, now));
}
