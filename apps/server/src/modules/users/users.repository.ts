import { randomBytes } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { authUsers } from '../../db/schema/auth.ts';
import { companies, companyUsers, userProfiles } from '../../db/schema/companies.ts';

type Queryable = Db | Tx;
export type ProfileRow = typeof userProfiles.$inferSelect;

/** 16 random bytes, url-safe: 22 characters, unguessable, so a topic name cannot be guessed. */
export function newSubscribeId(): string {
  return randomBytes(16).toString('base64url');
}

/** The user's profile, created on first need with a fresh `subscribeId`. */
export async function ensureProfile(db: Queryable, userId: string): Promise<ProfileRow> {
  const [existing] = await db
    .select()
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId))
    .limit(1);
  if (existing) return existing;
  await db
    .insert(userProfiles)
    .values({ userId, subscribeId: newSubscribeId() })
    .onConflictDoNothing({ target: userProfiles.userId });
  const [row] = await db.select().from(userProfiles).where(eq(userProfiles.userId, userId));
  if (!row) throw new Error('profile not created');
  return row;
}

/** The first name a user gives becomes their profile's; a later one changes nothing. */
export async function nameProfileOnce(
  db: Queryable,
  userId: string,
  displayName: string,
  now: Date,
): Promise<void> {
  await db
    .insert(userProfiles)
    .values({ userId, subscribeId: newSubscribeId(), displayName, updatedAt: now })
    .onConflictDoUpdate({
      target: userProfiles.userId,
      set: { displayName, updatedAt: now },
      setWhere: eq(userProfiles.displayName, ''),
    });
}

export async function updateProfileRow(
  db: Queryable,
  userId: string,
  values: Partial<Pick<ProfileRow, 'displayName' | 'avatarUrl' | 'timezone'>> & { updatedAt: Date },
): Promise<void> {
  await db.update(userProfiles).set(values).where(eq(userProfiles.userId, userId));
}

export async function findAuthUser(db: Queryable, userId: string) {
  const [row] = await db
    .select({ id: authUsers.id, email: authUsers.email, phone: authUsers.phone })
    .from(authUsers)
    .where(eq(authUsers.id, userId))
    .limit(1);
  return row;
}

/** Every company the user belongs to (invited and disabled too, with that status). */
export async function membershipsWithCompanies(db: Queryable, userId: string) {
  return db
    .select({
      companyId: companies.id,
      name: companies.name,
      slug: companies.slug,
      role: companyUsers.role,
      status: companyUsers.status,
    })
    .from(companyUsers)
    .innerJoin(companies, eq(companies.id, companyUsers.companyId))
    .where(eq(companyUsers.userId, userId))
    .orderBy(asc(companies.name));
}

/** The user's pending invitations, oldest first. */
export async function pendingInvitationsOf(db: Queryable, userId: string) {
  return db
    .select({
      companyId: companies.id,
      companyName: companies.name,
      role: companyUsers.role,
      invitedAt: companyUsers.createdAt,
    })
    .from(companyUsers)
    .innerJoin(companies, eq(companies.id, companyUsers.companyId))
    .where(and(eq(companyUsers.userId, userId), eq(companyUsers.status, 'invited')))
    .orderBy(asc(companyUsers.createdAt));
}

const pending = (companyId: string, userId: string) =>
  and(
    eq(companyUsers.companyId, companyId),
    eq(companyUsers.userId, userId),
    eq(companyUsers.status, 'invited'),
  );

/** Whether a pending invitation was there to accept. */
export async function acceptInvitationRow(
  db: Queryable,
  companyId: string,
  userId: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(companyUsers)
    .set({ status: 'active', updatedAt: now })
    .where(pending(companyId, userId))
    .returning({ id: companyUsers.id });
  return rows.length > 0;
}

/** Whether a pending invitation was there to decline. */
export async function deleteInvitationRow(
  db: Queryable,
  companyId: string,
  userId: string,
): Promise<boolean> {
  const rows = await db
    .delete(companyUsers)
    .where(pending(companyId, userId))
    .returning({ id: companyUsers.id });
  return rows.length > 0;
}
