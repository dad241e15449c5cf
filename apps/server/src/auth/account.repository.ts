import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { authUsers } from '../db/schema/auth.ts';
import type { UserRow } from './users.ts';

/** What signed-in users change of their own account (PUT /user). */
type OwnChange = Pick<
  Partial<typeof authUsers.$inferInsert>,
  'emailChange' | 'phoneChange' | 'userMetadata' | 'encryptedPassword'
> & { updatedAt: Date };

export async function updateOwnAccount(
  tx: Tx,
  userId: string,
  change: OwnChange,
): Promise<UserRow> {
  const [row] = await tx.update(authUsers).set(change).where(eq(authUsers.id, userId)).returning();
  return row as UserRow;
}
