import { desc, eq, lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { authDevMailbox } from '../db/schema/auth.ts';

type MailboxRow = typeof authDevMailbox.$inferSelect;

/** Keeps an email or SMS in the developer mailbox (no SMTP or SMS provider configured). */
export async function insertMailboxMessage(
  db: Db,
  message: { to: string; subject: string; text: string; html: string },
): Promise<void> {
  await db.insert(authDevMailbox).values(message);
}

/** The newest messages, to one recipient or to anyone. */
export async function listMailboxMessages(
  db: Db,
  to: string | undefined,
  limit: number,
): Promise<MailboxRow[]> {
  return db
    .select()
    .from(authDevMailbox)
    .where(to ? eq(authDevMailbox.to, to) : undefined)
    .orderBy(desc(authDevMailbox.createdAt), desc(authDevMailbox.id))
    .limit(limit);
}

export async function deleteMailboxMessagesBefore(db: Db, before: Date): Promise<void> {
  await db.delete(authDevMailbox).where(lt(authDevMailbox.createdAt, before));
}
