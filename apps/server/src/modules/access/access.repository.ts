import { and, eq, exists, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
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

/** Every tie of a user to what a request is about, in one query. */
export async function tiesOf(
  db: Queryable,
  userId: string,
  about: {
    companyId?: string | undefined;
    queueId?: string | undefined;
    subQueueId?: string | null | undefined;
    userId?: string | undefined;
  },
): Promise<Ties> {
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
  const result = await db.execute(
    sql`select ${role} as role, ${assigned} as assigned, ${approved} as approved, ${administers} as administers`,
  );
  const [row] = (
    result as unknown as {
      rows: Array<{
        role: CompanyRole | null;
        assigned: boolean;
        approved: boolean;
        administers: boolean;
      }>;
    }
  ).rows;
  return {
    role: row?.role ?? undefined,
    assigned: Boolean(row?.assigned),
    approved: Boolean(row?.approved),
    administers: Boolean(row?.administers),
  };
}
