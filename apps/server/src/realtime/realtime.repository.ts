import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { userProfiles } from '../db/schema/companies.ts';
import { queues } from '../db/schema/queues.ts';
import { sessions } from '../db/schema/sessions.ts';

/** The user's private topic name, when the user has a profile. */
export async function subscribeIdOf(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ subscribeId: userProfiles.subscribeId })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId))
    .limit(1);
  return row?.subscribeId;
}

/** Whose private topic name this is. */
export async function userOfSubscribeId(db: Db, subscribeId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: userProfiles.userId })
    .from(userProfiles)
    .where(eq(userProfiles.subscribeId, subscribeId))
    .limit(1);
  return row?.userId;
}

export type SessionAudience = {
  sessionId: string;
  subQueueId: string | null;
  queueId: string;
  companyId: string;
  visibility: 'public' | 'unlisted' | 'private';
  queueStatus: 'active' | 'archived';
};

/** What decides who may watch a session: its queue's company, visibility and status. */
export async function sessionAudience(
  db: Db,
  sessionId: string,
): Promise<SessionAudience | undefined> {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      subQueueId: sessions.subQueueId,
      queueId: queues.id,
      companyId: queues.companyId,
      visibility: queues.visibility,
      queueStatus: queues.status,
    })
    .from(sessions)
    .innerJoin(queues, eq(queues.id, sessions.queueId))
    .where(eq(sessions.id, sessionId))
    .limit(1);
  return row;
}
