import { and, asc, count, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client.ts';
import {
  authIdentities,
  authMfaFactors,
  authOneTimeTokens,
  authSessions,
  authUsers,
} from '../db/schema/auth.ts';
import type { FactorRow } from './mfa.repository.ts';

export type UserRow = typeof authUsers.$inferSelect;
export type IdentityRow = typeof authIdentities.$inferSelect;
type UserValues = typeof authUsers.$inferInsert;
type Queryable = Db | Tx;

/** The two kinds of address an account signs in with; each is also a provider's name. */
export type Channel = 'email' | 'phone';

/**
 * Each channel's columns. Emails are compared case-insensitively (an address given in
 * `normaliseEmail` form), phones as stored (`normalisePhone` form).
 */
const columns = {
  email: {
    address: authUsers.email,
    pending: authUsers.emailChange,
    matches: (column: AnyPgColumn, address: string): SQL => sql`lower(${column}) = ${address}`,
    confirmed: (now: Date) => ({ emailConfirmedAt: now }),
    verifiedPatch: sql`'{"email_verified": true}'::jsonb`,
  },
  phone: {
    address: authUsers.phone,
    pending: authUsers.phoneChange,
    matches: (column: AnyPgColumn, address: string): SQL => eq(column, address),
    confirmed: (now: Date) => ({ phoneConfirmedAt: now }),
    verifiedPatch: sql`'{"phone_verified": true}'::jsonb`,
  },
};

/** A user that exists for sign-ins and tokens: not deleted (soft-deleted rows stay a while). */
export const isLiveUser = isNull(authUsers.deletedAt);

async function findUserWhere(db: Queryable, where: SQL | undefined): Promise<UserRow | undefined> {
  const [user] = await db.select().from(authUsers).where(and(where, isLiveUser)).limit(1);
  return user;
}

/** The account whose email or phone is `address`. */
export function findUserByAddress(
  db: Queryable,
  channel: Channel,
  address: string,
): Promise<UserRow | undefined> {
  const { address: column, matches } = columns[channel];
  return findUserWhere(db, matches(column, address));
}

/** The account waiting to change its email or phone to `address`. */
export function findUserByPendingAddress(
  db: Queryable,
  channel: Channel,
  address: string,
): Promise<UserRow | undefined> {
  const { pending, matches } = columns[channel];
  return findUserWhere(db, matches(pending, address));
}

export function findUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
  return findUserWhere(db, eq(authUsers.id, id));
}

/** The user row locked for the transaction; undefined when missing or deleted. */
export async function lockUser(tx: Tx, id: string): Promise<UserRow | undefined> {
  const [user] = await tx.select().from(authUsers).where(eq(authUsers.id, id)).for('update');
  return user && !user.deletedAt ? user : undefined;
}

export async function insertUser(tx: Tx, values: UserValues): Promise<UserRow> {
  const [user] = await tx.insert(authUsers).values(values).returning();
  if (!user) throw new Error('user not inserted');
  return user;
}

export async function updateUser(
  tx: Tx,
  id: string,
  changes: Partial<UserValues>,
): Promise<UserRow> {
  const [user] = await tx.update(authUsers).set(changes).where(eq(authUsers.id, id)).returning();
  return user as UserRow;
}

/** Marks the address confirmed, in the user and in their identity of that channel. */
export async function markAddressConfirmed(
  tx: Tx,
  channel: Channel,
  userId: string,
  now: Date,
): Promise<UserRow> {
  const updated = await updateUser(tx, userId, {
    ...columns[channel].confirmed(now),
    updatedAt: now,
  });
  await tx
    .update(authIdentities)
    .set({
      identityData: sql`${authIdentities.identityData} || ${columns[channel].verifiedPatch}`,
      updatedAt: now,
    })
    .where(and(eq(authIdentities.userId, userId), eq(authIdentities.provider, channel)));
  return updated;
}

// Identities ---------------------------------------------------------------------------------

export function identitiesOf(db: Queryable, userId: string): Promise<IdentityRow[]> {
  return db
    .select()
    .from(authIdentities)
    .where(eq(authIdentities.userId, userId))
    .orderBy(asc(authIdentities.createdAt));
}

/** A provider's identity, locked for the transaction. */
export async function lockIdentity(
  tx: Tx,
  provider: string,
  providerId: string,
): Promise<IdentityRow | undefined> {
  const [identity] = await tx
    .select()
    .from(authIdentities)
    .where(and(eq(authIdentities.provider, provider), eq(authIdentities.providerId, providerId)))
    .for('update');
  return identity;
}

export async function insertIdentity(
  tx: Tx,
  values: typeof authIdentities.$inferInsert,
): Promise<void> {
  await tx.insert(authIdentities).values(values);
}

export async function updateIdentity(
  tx: Tx,
  id: string,
  changes: Partial<typeof authIdentities.$inferInsert>,
): Promise<void> {
  await tx.update(authIdentities).set(changes).where(eq(authIdentities.id, id));
}

/** Updates the user's identity of a channel; false when they have none. */
export async function updateChannelIdentity(
  tx: Tx,
  userId: string,
  channel: Channel,
  changes: PgUpdateSetSource<typeof authIdentities>,
): Promise<boolean> {
  const rows = await tx
    .update(authIdentities)
    .set(changes)
    .where(and(eq(authIdentities.userId, userId), eq(authIdentities.provider, channel)))
    .returning({ id: authIdentities.id });
  return rows.length > 0;
}

/** The admin API's new address: merged into the email identity's data. */
export async function setIdentityEmail(
  tx: Tx,
  userId: string,
  email: string,
  now: Date,
): Promise<void> {
  await updateChannelIdentity(tx, userId, 'email', {
    email,
    identityData: sql`${authIdentities.identityData} || ${JSON.stringify({ email })}::jsonb`,
    updatedAt: now,
  });
}

export async function deleteIdentity(tx: Tx, id: string): Promise<void> {
  await tx.delete(authIdentities).where(eq(authIdentities.id, id));
}

// Admin --------------------------------------------------------------------------------------

/** One page of live users by creation time (email containing `filter`), and their count. */
export async function listUsers(
  db: Queryable,
  query: { page: number; perPage: number; filter: string | undefined; order: 'asc' | 'desc' },
): Promise<{ total: number; users: UserRow[] }> {
  const by = query.order === 'asc' ? asc : desc;
  const where = and(
    isNull(authUsers.deletedAt),
    query.filter
      ? sql`${authUsers.email} ilike ${`%${query.filter.replace(/[\\%_]/g, '\\$&')}%`}`
      : undefined,
  );
  const [{ total } = { total: 0 }] = await db
    .select({ total: count() })
    .from(authUsers)
    .where(where);
  const users = await db
    .select()
    .from(authUsers)
    .where(where)
    .orderBy(by(authUsers.createdAt), by(authUsers.id))
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage);
  return { total: Number(total), users };
}

/** The identities and MFA factors of several users at once (a page of the admin list). */
export async function signInMethodsOf(
  db: Queryable,
  userIds: string[],
): Promise<{ identities: IdentityRow[]; factors: FactorRow[] }> {
  if (userIds.length === 0) return { identities: [], factors: [] };
  const identities = await db
    .select()
    .from(authIdentities)
    .where(inArray(authIdentities.userId, userIds))
    .orderBy(asc(authIdentities.createdAt));
  const factors = await db
    .select()
    .from(authMfaFactors)
    .where(inArray(authMfaFactors.userId, userIds))
    .orderBy(asc(authMfaFactors.createdAt));
  return { identities, factors };
}

/**
 * A soft delete: the user's sessions, identities, factors and tokens go; the row stays,
 * anonymised, with `deleted_at`. (Passkeys are passkey-credentials.ts's.)
 */
export async function anonymiseUser(tx: Tx, userId: string, now: Date): Promise<void> {
  await tx.delete(authSessions).where(eq(authSessions.userId, userId));
  await tx.delete(authIdentities).where(eq(authIdentities.userId, userId));
  await tx.delete(authMfaFactors).where(eq(authMfaFactors.userId, userId));
  await tx.delete(authOneTimeTokens).where(eq(authOneTimeTokens.userId, userId));
  await updateUser(tx, userId, {
    email: null,
    phone: null,
    emailChange: null,
    phoneChange: null,
    encryptedPassword: null,
    userMetadata: {},
    appMetadata: {},
    deletedAt: now,
    updatedAt: now,
  });
}

/** Removes the user and, by cascade, everything of theirs. */
export async function deleteUser(tx: Tx, userId: string): Promise<void> {
  await tx.delete(authUsers).where(eq(authUsers.id, userId));
}

/** Drops the user's pending one-time token of a type (the other half of an email change). */
export async function deleteTokensOfType(
  tx: Tx,
  userId: string,
  tokenType: (typeof authOneTimeTokens.$inferSelect)['tokenType'],
): Promise<void> {
  await tx
    .delete(authOneTimeTokens)
    .where(and(eq(authOneTimeTokens.userId, userId), eq(authOneTimeTokens.tokenType, tokenType)));
}
