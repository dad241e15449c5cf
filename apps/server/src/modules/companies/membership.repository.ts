import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { type CompanyRole, companyUsers } from '../../db/schema/companies.ts';

type Queryable = Db | Tx;

/** The caller's active role in a company; invited and disabled members have none. */
export async function activeRoleIn(
  db: Queryable,
  companyId: string,
  userId: string,
): Promise<CompanyRole | undefined> {
  const [row] = await db
    .select({ role: companyUsers.role })
    .from(companyUsers)
    .where(
      and(
        eq(companyUsers.companyId, companyId),
        eq(companyUsers.userId, userId),
        eq(companyUsers.status, 'active'),
      ),
    )
    .limit(1);
  return row?.role;
}
