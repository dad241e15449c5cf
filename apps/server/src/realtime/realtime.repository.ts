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

type SessionAudience = {
  sessionId: string;
  subQueueId: string | null;
  queueId: string;
  companyId: string;
  visibility: 'public' | 'unlisted' | 'private';
  queueStatus: 'active' | 'archived';
};

/** What decides who may watch a session: its queue's company, visibility and status. */
async function sessionAudience(db: Db, sessionId: string): Promise<SessionAudience | undefined> {
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

export type AudienceLookup = (sessionId: string) => Promise<SessionAudience | undefined>;

/**
 * sessionAudience remembered per session for `ttlMs` and shared by every connection of this
 * instance, so a thousand visitors opening one board at once cost one query, not a thousand.
 * A queue made private reaches new subscriptions within `ttlMs`; existing ones were allowed
 * already (as with any check at SUBSCRIBE).
 */
export function cachedSessionAudience(db: Db, ttlMs = 5000): AudienceLookup {
  const cache = new Map<
    string,
    { until: number; audience: Promise<SessionAudience | undefined> }
  >();
  return (sessionId) => {
    const now = Date.now();
    const hit = cache.get(sessionId);
    if (hit && hit.until > now) return hit.audience;
    if (cache.size >= 10_000) {
      for (const [id, entry] of cache) if (entry.until <= now) cache.delete(id);
    }
    const audience = sessionAudience(db, sessionId);
    cache.set(sessionId, { until: now + ttlMs, audience });
    // A failed lookup is not remembered: the next SUBSCRIBE asks the database again.
    audience.catch(() => cache.delete(sessionId));
    return audience;
  };
}
