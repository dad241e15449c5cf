import { and, eq, exists, inArray, type SQLWrapper, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { queryAll } from '../../db/query-all.ts';
import { type CompanyRole, companyUsers } from '../../db/schema/companies.ts';
import { joinRequests, subQueueStaff } from '../../db/schema/queues.ts';

type Queryable = Db | Tx;

export type Ties = {
  /** The active role in the company; invited and disabled members have none. */
  role: CompanyRole | undefined;
  /** Assigned to the sub-queue. */
  assigned: boolean;
  /** Holds an approved join request for the queue. */
  approved: boolean;
  /** An active owner or admin of a company where `about.userId` is an active member. */
  administers: boolean;
};

const never = sql<boolean>`false`;

/**
 * What a request is about: ids, or columns of the statement the ties are read in (a session
 * locked with its caller's ties: `tiesColumns`).
 */
type About = {
  companyId?: string | SQLWrapper | undefined;
  queueId?: string | SQLWrapper | undefined;
  subQueueId?: string | SQLWrapper | null | undefined;
  userId?: string | undefined;
};

/**
 * Every tie of a user to what a request is about, as one column each: for a statement of its
 * own (`tiesOf`) or for one that also reads what the request is about (the user as a value or
 * a placeholder). Read the row with `tiesFromRow`.
 */
export function tiesColumns(db: Queryable, userId: string | SQLWrapper, about: About) {
  const role = about.companyId
    ? sql<CompanyRole | null>`(${db
        .select({ role: companyUsers.role })
        .from(companyUsers)
        .where(
          and(
            eq(companyUsers.companyId, about.companyId),
            eq(companyUsers.userId, userId),
            eq(companyUsers.status, 'active'),
          ),
        )
        .limit(1)})`
    : sql<CompanyRole | null>`null`;
  // A column may be null (a session outside any sub-queue): then nothing matches, as with none.
  const assigned = about.subQueueId
    ? exists(
        db
          .select({ one: sql`1` })
          .from(subQueueStaff)
          .where(
            and(eq(subQueueStaff.subQueueId, about.subQueueId), eq(subQueueStaff.userId, userId)),
          ),
      )
    : never;
  const approved = about.queueId
    ? exists(
        db
          .select({ one: sql`1` })
          .from(joinRequests)
          .where(
            and(
              eq(joinRequests.queueId, about.queueId),
              eq(joinRequests.userId, userId),
              eq(joinRequests.status, 'approved'),
            ),
          ),
      )
    : never;
  const member = alias(companyUsers, 'member');
  const administers = about.userId
    ? exists(
        db
          .select({ one: sql`1` })
          .from(companyUsers)
          .innerJoin(member, eq(member.companyId, companyUsers.companyId))
          .where(
            and(
              eq(companyUsers.userId, userId),
              eq(companyUsers.status, 'active'),
              inArray(companyUsers.role, ['owner', 'admin']),
              eq(member.userId, about.userId),
              eq(member.status, 'active'),
            ),
          ),
      )
    : never;
  return { role, assigned, approved, administers };
}

/** The columns of `tiesColumns` as read back (the booleans are `exists` results). */
type TiesRow = {
  role?: CompanyRole | null | undefined;
  assigned?: unknown;
  approved?: unknown;
  administers?: unknown;
};

export function tiesFromRow(row: TiesRow | undefined): Ties {
  return {
    role: row?.role ?? undefined,
    assigned: Boolean(row?.assigned),
    approved: Boolean(row?.approved),
    administers: Boolean(row?.administers),
  };
}

/** Every tie of a user to what a request is about, in one query. */
export async function tiesOf(db: Queryable, userId: string, about: About): Promise<Ties> {
  const { role, assigned, approved, administers } = tiesColumns(db, userId, about);
  const result = await db.execute(
    sql`select ${role} as role, ${assigned} as assigned, ${approved} as approved, ${administers} as administers`,
  );
  return tiesFromRow((result as unknown as { rows: TiesRow[] }).rows[0]);
}

/** The caller's ties to many queues and sessions at once: for filtering a list by the rule. */
export async function tiesToMany(
  db: Queryable,
  userId: string,
  about: { companyIds: string[]; queueIds: string[]; subQueueIds: string[] },
): Promise<{
  roles: Map<string, CompanyRole>;
  approved: Set<string>;
  assigned: Set<string>;
}> {
  const none = Promise.resolve([]);
  const [roles, approved, assigned] = await queryAll(db, [
    () =>
      about.companyIds.length === 0
        ? none
        : db
            .select({ companyId: companyUsers.companyId, role: companyUsers.role })
            .from(companyUsers)
            .where(
              and(
                eq(companyUsers.userId, userId),
                eq(companyUsers.status, 'active'),
                inArray(companyUsers.companyId, about.companyIds),
              ),
            ),
    () =>
      about.queueIds.length === 0
        ? none
        : db
            .select({ queueId: joinRequests.queueId })
            .from(joinRequests)
            .where(
              and(
                eq(joinRequests.userId, userId),
                eq(joinRequests.status, 'approved'),
                inArray(joinRequests.queueId, about.queueIds),
              ),
            ),
    () =>
      about.subQueueIds.length === 0
        ? none
        : db
            .select({ subQueueId: subQueueStaff.subQueueId })
            .from(subQueueStaff)
            .where(
              and(
                eq(subQueueStaff.userId, userId),
                inArray(subQueueStaff.subQueueId, about.subQueueIds),
              ),
            ),
  ]);
  return {
    roles: new Map(
      (roles as Array<{ companyId: string; role: CompanyRole }>).map((r) => [r.companyId, r.role]),
    ),
    approved: new Set((approved as Array<{ queueId: string }>).map((r) => r.queueId)),
    assigned: new Set((assigned as Array<{ subQueueId: string }>).map((r) => r.subQueueId)),
  };
}

/** Queues the user holds an approved join request for (candidates for a list; the rule decides). */
export async function approvedQueueIds(db: Queryable, userId: string): Promise<string[]> {
  const rows = await db
    .select({ queueId: joinRequests.queueId })
    .from(joinRequests)
    .where(and(eq(joinRequests.userId, userId), eq(joinRequests.status, 'approved')));
  return rows.map((r) => r.queueId);
}
