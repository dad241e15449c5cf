import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { meetings } from '../../db/schema/meetings.ts';
import { queues, subQueueStaff } from '../../db/schema/queues.ts';
import type { TestApp } from '../../test/app.ts';
import { createLiveSession } from '../../test/live-session.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';

/**
 * For the meetings tests: an open session of a video queue whose visitor (a signed-in user)
 * holds a token that the owner has just called, the state a meeting starts from.
 */
export async function createCalledVisitor(t: TestApp, options: { online?: boolean } = {}) {
  const live = await createLiveSession(t);
  await t.database.db
    .update(queues)
    .set({ online: options.online ?? true })
    .where(eq(queues.id, live.queue.id));
  const visitor = await createTestUser(t);
  const token = await takeToken(t, live.session.id, visitor);
  const next = await t.app.inject({
    method: 'POST',
    url: '/api/queues/sessions/next-token',
    headers: live.owner.headers,
    payload: { sessionId: live.session.id },
  });
  expect(next.json().data.called?.id, next.body).toBe(token);

  async function assign(user: TestUser) {
    await t.database.db
      .insert(subQueueStaff)
      .values({ subQueueId: live.subQueue.id, userId: user.userId });
  }
  return { ...live, visitor, tokenId: token, assign };
}

async function takeToken(t: TestApp, sessionId: string, visitor: TestUser) {
  const taken = await t.app.inject({
    method: 'POST',
    url: '/api/queues/sessions/tokens',
    headers: visitor.headers,
    payload: { sessionId },
  });
  expect(taken.statusCode, taken.body).toBe(201);
  return taken.json().data.id as string;
}

export async function startMeeting(
  t: TestApp,
  staff: TestUser,
  sessionId: string,
  tokenId: string,
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/meetings',
    headers: staff.headers,
    payload: { sessionId, tokenId },
  });
}

export async function meetingRows(t: TestApp) {
  return t.database.db.select().from(meetings).orderBy(meetings.createdAt);
}
