import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { authDevMailbox } from '../db/schema/auth.ts';

/** Keeps one email or SMS in the developer mailbox. */
export async function insertDevMail(
  db: Db,
  message: { to: string; subject: string; text: string; html: string },
): Promise<void> {
  await db.insert(authDevMailbox).values(message);
}

/** The newest messages, all or those to one address. */
export async function listDevMail(db: Db, to: string | undefined, limit: number) {
  return db
    .select()
    .from(authDevMailbox)
    .where(to === undefined ? undefined : eq(authDevMailbox.to, to))
    .orderBy(desc(authDevMailbox.createdAt), desc(authDevMailbox.id))
    .limit(limit);
}
