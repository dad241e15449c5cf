import { and, asc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { authMfaChallenges, authMfaFactors, authSessions } from '../db/schema/auth.ts';

/** The MFA tables (auth.mfa_factors, auth.mfa_challenges) and MFA's writes to sessions: only here. */
export type FactorRow = typeof authMfaFactors.$inferSelect;
export type MfaChallengeRow = typeof authMfaChallenges.$inferSelect;
type Queryable = Db | Tx;

export async function factorsOf(db: Queryable, userId: string): Promise<FactorRow[]> {
  return db
    .select()
    .from(authMfaFactors)
    .where(eq(authMfaFactors.userId, userId))
    .orderBy(asc(authMfaFactors.createdAt), asc(authMfaFactors.id));
}

export async function hasVerifiedFactor(db: Queryable, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: authMfaFactors.id })
    .from(authMfaFactors)
    .where(and(eq(authMfaFactors.userId, userId), eq(authMfaFactors.status, 'verified')))
    .limit(1);
  return row !== undefined;
}

/** The user's factor `id`, or undefined (also for someone else's factor). */
export async function findFactor(
  db: Queryable,
  userId: string,
  id: string,
  options: { lock?: boolean } = {},
): Promise<FactorRow | undefined> {
  const query = db
    .select()
    .from(authMfaFactors)
    .where(and(eq(authMfaFactors.id, id), eq(authMfaFactors.userId, userId)));
  const [factor] = options.lock ? await query.for('update') : await query;
  return factor;
}

/**
 * Serialises one user's enrolments (MFA factors, passkeys): the count and the name checks
 * of two concurrent ones must not race.
 */
export async function insertFactor(
  tx: Tx,
  values: Pick<FactorRow, 'userId' | 'friendlyName' | 'factorType'> &
    Partial<Pick<FactorRow, 'secret' | 'phone'>>,
  now: Date,
): Promise<FactorRow> {
  const [row] = await tx
    .insert(authMfaFactors)
    .values({ ...values, createdAt: now, updatedAt: now })
    .returning();
  return row as FactorRow;
}

export async function deleteFactors(db: Queryable, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.delete(authMfaFactors).where(inArray(authMfaFactors.id, ids));
}

/** A right answer: the factor is verified, with its new TOTP step or WebAuthn credential. */
export async function markFactorVerified(
  tx: Tx,
  id: string,
  changes: Partial<Pick<FactorRow, 'lastUsedStep' | 'webauthnCredential'>>,
  now: Date,
): Promise<void> {
  await tx
    .update(authMfaFactors)
    .set({ status: 'verified', ...changes, updatedAt: now })
    .where(eq(authMfaFactors.id, id));
}

/** The user's other unverified factors of a type (abandoned enrolments of it). */
export async function deleteOtherUnverified(tx: Tx, factor: FactorRow): Promise<void> {
  await tx
    .delete(authMfaFactors)
    .where(
      and(
        eq(authMfaFactors.userId, factor.userId),
        eq(authMfaFactors.factorType, factor.factorType),
        eq(authMfaFactors.status, 'unverified'),
        ne(authMfaFactors.id, factor.id),
      ),
    );
}

export async function insertChallenge(
  tx: Tx,
  values: Pick<
    MfaChallengeRow,
    'factorId' | 'ip' | 'webauthnChallenge' | 'webauthnType' | 'expiresAt'
  >,
  now: Date,
): Promise<string> {
  const [row] = await tx
    .insert(authMfaChallenges)
    .values({ ...values, createdAt: now })
    .returning({ id: authMfaChallenges.id });
  await tx
    .update(authMfaFactors)
    .set({ lastChallengedAt: now })
    .where(eq(authMfaFactors.id, values.factorId));
  return (row as { id: string }).id;
}

/** The SMS code's hash, keyed by the challenge id (so known only after the insert). */
export async function setChallengeOtpHash(tx: Tx, id: string, otpHash: string): Promise<void> {
  await tx.update(authMfaChallenges).set({ otpHash }).where(eq(authMfaChallenges.id, id));
}

/** The factor's challenge `id`, locked until the answer is settled. */
export async function lockChallenge(
  tx: Tx,
  factorId: string,
  id: string,
): Promise<MfaChallengeRow | undefined> {
  const [challenge] = await tx
    .select()
    .from(authMfaChallenges)
    .where(and(eq(authMfaChallenges.id, id), eq(authMfaChallenges.factorId, factorId)))
    .for('update');
  return challenge;
}

export async function deleteChallenge(db: Queryable, id: string): Promise<void> {
  await db.delete(authMfaChallenges).where(eq(authMfaChallenges.id, id));
}

export async function countFailedAttempt(tx: Tx, id: string): Promise<void> {
  await tx
    .update(authMfaChallenges)
    .set({ attempts: sql`${authMfaChallenges.attempts} + 1` })
    .where(eq(authMfaChallenges.id, id));
}

/** Sessions raised with a removed factor fall back to aal1 and lose their MFA methods. */
export async function lowerSessionsOf(tx: Tx, factorId: string, now: Date): Promise<void> {
  await tx
    .update(authSessions)
    .set({
      aal: 'aal1',
      factorId: null,
      amr: sql`coalesce((select jsonb_agg(e) from jsonb_array_elements(${authSessions.amr}) e where e->>'method' not in ('totp', 'mfa/phone', 'mfa/webauthn')), '[]'::jsonb)`,
      updatedAt: now,
    })
    .where(eq(authSessions.factorId, factorId));
}

export async function deleteExpiredChallenges(db: Db, now: Date): Promise<void> {
  await db.delete(authMfaChallenges).where(lt(authMfaChallenges.expiresAt, now));
}
