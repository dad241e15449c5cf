import { and, asc, count, eq, isNull, lt } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { authPasskeyChallenges, authPasskeys } from '../db/schema/auth.ts';
import type { NewCredential } from './webauthn.ts';

/** The passkey tables (auth.webauthn_credentials, auth.webauthn_challenges): only here. */
export type PasskeyRow = typeof authPasskeys.$inferSelect;
type ChallengeRow = typeof authPasskeyChallenges.$inferSelect;
type Queryable = Db | Tx;
type ChallengeType = ChallengeRow['challengeType'];

export function passkeysOf(db: Queryable, userId: string): Promise<PasskeyRow[]> {
  return db
    .select()
    .from(authPasskeys)
    .where(eq(authPasskeys.userId, userId))
    .orderBy(asc(authPasskeys.createdAt), asc(authPasskeys.id));
}

export async function countPasskeys(db: Queryable, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(authPasskeys)
    .where(eq(authPasskeys.userId, userId));
  return row?.n ?? 0;
}

/** The user's passkey `id`, or undefined (also for someone else's). */
export async function findPasskey(
  db: Queryable,
  userId: string,
  id: string,
): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .select()
    .from(authPasskeys)
    .where(and(eq(authPasskeys.id, id), eq(authPasskeys.userId, userId)));
  return row;
}

export async function findPasskeyByCredentialId(
  db: Queryable,
  credentialId: string,
): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .select()
    .from(authPasskeys)
    .where(eq(authPasskeys.credentialId, credentialId));
  return row;
}

/** Throws a unique violation when the credential is registered already (to anyone). */
export async function insertPasskey(
  tx: Tx,
  userId: string,
  credential: NewCredential,
  friendlyName: string,
  now: Date,
): Promise<PasskeyRow> {
  const [row] = await tx
    .insert(authPasskeys)
    .values({
      userId,
      credentialId: credential.id,
      publicKey: credential.publicKey,
      signCount: credential.counter,
      transports: credential.transports,
      aaguid: credential.aaguid,
      backupEligible: credential.backupEligible,
      backedUp: credential.backedUp,
      friendlyName,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row as PasskeyRow;
}

/**
 * Records a sign-in: the new counter and when. Conditional on the counter read before the
 * assertion was checked, so two concurrent uses of one assertion cannot both succeed.
 */
export async function recordPasskeyUse(
  tx: Tx,
  row: PasskeyRow,
  newCounter: number,
  now: Date,
): Promise<boolean> {
  const updated = await tx
    .update(authPasskeys)
    .set({ signCount: newCounter, lastUsedAt: now, updatedAt: now })
    .where(and(eq(authPasskeys.id, row.id), eq(authPasskeys.signCount, row.signCount)))
    .returning({ id: authPasskeys.id });
  return updated.length === 1;
}

export async function renamePasskey(
  db: Queryable,
  row: PasskeyRow,
  friendlyName: string,
  now: Date,
): Promise<PasskeyRow> {
  const [updated] = await db
    .update(authPasskeys)
    .set({ friendlyName, updatedAt: now })
    .where(eq(authPasskeys.id, row.id))
    .returning();
  return updated ?? row;
}

export async function deletePasskey(db: Queryable, id: string): Promise<void> {
  await db.delete(authPasskeys).where(eq(authPasskeys.id, id));
}

/** A soft-deleted user keeps no way to sign in. */
export async function deletePasskeysOf(db: Queryable, userId: string): Promise<void> {
  await db.delete(authPasskeys).where(eq(authPasskeys.userId, userId));
}

export async function insertChallenge(
  db: Queryable,
  values: { userId: string | null; type: ChallengeType; challenge: string; expiresAt: Date },
  now: Date,
): Promise<string> {
  const [row] = await db
    .insert(authPasskeyChallenges)
    .values({
      userId: values.userId,
      challengeType: values.type,
      challenge: values.challenge,
      expiresAt: values.expiresAt,
      createdAt: now,
    })
    .returning({ id: authPasskeyChallenges.id });
  return (row as { id: string }).id;
}

/**
 * Takes a challenge out (single use: a second answer finds nothing), if it is of this
 * ceremony and, for a registration, of this user; expired or not (the caller tells).
 */
export async function consumeChallenge(
  db: Queryable,
  id: string,
  type: ChallengeType,
  userId: string | null,
): Promise<ChallengeRow | undefined> {
  const [row] = await db
    .delete(authPasskeyChallenges)
    .where(
      and(
        eq(authPasskeyChallenges.id, id),
        eq(authPasskeyChallenges.challengeType, type),
        userId === null
          ? isNull(authPasskeyChallenges.userId)
          : eq(authPasskeyChallenges.userId, userId),
      ),
    )
    .returning();
  return row;
}

export async function pruneExpiredChallenges(db: Queryable, now: Date): Promise<void> {
  await db.delete(authPasskeyChallenges).where(lt(authPasskeyChallenges.expiresAt, now));
}
