import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  type CompanyRole,
  companies,
  companyUsers,
  userProfiles,
} from '../../db/schema/companies.ts';

type Queryable = Db | Tx;
export type CompanyRow = typeof companies.$inferSelect;
export type CompanyUserRow = typeof companyUsers.$inferSelect;
export type MemberRow = CompanyUserRow & { displayName: string; avatarUrl: string | null };

export async function findCompany(db: Queryable, id: string): Promise<CompanyRow | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.id, id)).limit(1);
  return row;
}

export async function slugExists(db: Queryable, slug: string): Promise<boolean> {
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.slug, slug))
    .limit(1);
  return row !== undefined;
}

export async function insertCompany(
  tx: Tx,
  values: typeof companies.$inferInsert,
): Promise<CompanyRow> {
  const [row] = await tx.insert(companies).values(values).returning();
  if (!row) throw new Error('company not inserted');
  return row;
}

export async function updateCompanyRow(
  db: Queryable,
  id: string,
  values: Partial<typeof companies.$inferInsert>,
): Promise<CompanyRow | undefined> {
  const [row] = await db.update(companies).set(values).where(eq(companies.id, id)).returning();
  return row;
}

const memberColumns = {
  id: companyUsers.id,
  companyId: companyUsers.companyId,
  userId: companyUsers.userId,
  email: companyUsers.email,
  role: companyUsers.role,
  status: companyUsers.status,
  invitedBy: companyUsers.invitedBy,
  createdAt: companyUsers.createdAt,
  updatedAt: companyUsers.updatedAt,
  displayName: sql<string>`coalesce(${userProfiles.displayName}, '')`,
  avatarUrl: userProfiles.avatarUrl,
};

export async function listMembers(db: Queryable, companyId: string): Promise<MemberRow[]> {
  return db
    .select(memberColumns)
    .from(companyUsers)
    .leftJoin(userProfiles, eq(userProfiles.userId, companyUsers.userId))
    .where(eq(companyUsers.companyId, companyId))
    .orderBy(asc(companyUsers.createdAt), asc(companyUsers.email));
}

export async function findMember(
  db: Queryable,
  companyId: string,
  userId: string,
): Promise<MemberRow | undefined> {
  const [row] = await db
    .select(memberColumns)
    .from(companyUsers)
    .leftJoin(userProfiles, eq(userProfiles.userId, companyUsers.userId))
    .where(and(eq(companyUsers.companyId, companyId), eq(companyUsers.userId, userId)))
    .limit(1);
  return row;
}

/** Locks the member's row for the rest of the transaction. */
export async function lockMember(
  tx: Tx,
  companyId: string,
  userId: string,
): Promise<CompanyUserRow | undefined> {
  const [row] = await tx
    .select()
    .from(companyUsers)
    .where(and(eq(companyUsers.companyId, companyId), eq(companyUsers.userId, userId)))
    .for('update');
  return row;
}

/**
 * Locks the company's active owners, so two concurrent demotions of the last two owners are
 * serialised and the second one sees that only one owner is left.
 */
export async function lockActiveOwners(tx: Tx, companyId: string): Promise<string[]> {
  const rows = await tx
    .select({ userId: companyUsers.userId })
    .from(companyUsers)
    .where(
      and(
        eq(companyUsers.companyId, companyId),
        eq(companyUsers.role, 'owner'),
        eq(companyUsers.status, 'active'),
      ),
    )
    .for('update');
  return rows.map((row) => row.userId);
}

export async function insertMember(
  db: Queryable,
  values: typeof companyUsers.$inferInsert,
): Promise<CompanyUserRow> {
  const [row] = await db.insert(companyUsers).values(values).returning();
  if (!row) throw new Error('member not inserted');
  return row;
}

export async function updateMemberRow(
  db: Queryable,
  companyId: string,
  userId: string,
  values: { role?: CompanyRole; status?: 'invited' | 'active' | 'disabled'; updatedAt: Date },
): Promise<void> {
  await db
    .update(companyUsers)
    .set(values)
    .where(and(eq(companyUsers.companyId, companyId), eq(companyUsers.userId, userId)));
}

export async function deleteMemberRow(db: Queryable, companyId: string, userId: string) {
  await db
    .delete(companyUsers)
    .where(and(eq(companyUsers.companyId, companyId), eq(companyUsers.userId, userId)));
}

/** Invited memberships become active once the user signs in (see the README). */
export async function activateInvitations(db: Queryable, userId: string, now: Date) {
  await db
    .update(companyUsers)
    .set({ status: 'active', updatedAt: now })
    .where(and(eq(companyUsers.userId, userId), eq(companyUsers.status, 'invited')));
}
