import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { companies, sessions } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createLiveSession } from '../../test/live-session.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';
import * as repo from './tokens.repository.ts';

// The product's own session read, counted: how often the board goes to the database.
vi.mock('./tokens.repository.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('./tokens.repository.ts')>();
  return { ...original, findSessionContext: vi.fn(original.findSessionContext) };
});

/**
 * Issue 15: the public board answers from a cache shared per session for a second: one read
 * for many callers, a change made here visible at once, one made elsewhere after the window,
 * and never one session's (or company's) board for another, nor to a caller who may not see it.
 */
describe.each(testDrivers)('the session board (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database);
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  const board = (sessionId: string, user?: TestUser) =>
    t.app.inject({
      method: 'GET',
      url: `/api/queues/sessions/${sessionId}/board`,
      headers: user?.headers ?? {},
    });
  const take = (user: TestUser, sessionId: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/queues/sessions/tokens',
      payload: { sessionId },
      headers: user.headers,
    });

  it('is read once for many callers and shows a change made here at once', async () => {
    const live = await createLiveSession(t);
    const reads = vi.mocked(repo.findSessionContext);
    reads.mockClear();
    const answers = await Promise.all(Array.from({ length: 20 }, () => board(live.session.id)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(answers.every((a) => a.json().data.waiting === 0)).toBe(true);
    expect(reads).toHaveBeenCalledTimes(1);

    // A token taken on this instance is announced on the session's topic, which drops the board.
    expect((await take(await createTestUser(t), live.session.id)).statusCode).toBe(201);
    expect((await board(live.session.id)).json().data.waiting).toBe(1);
  });

  it('shows a change made elsewhere after its window', async () => {
    const live = await createLiveSession(t);
    expect((await board(live.session.id)).json().data.notes).toBe('');
    // Another instance's change: nothing announced here.
    await database.db
      .update(sessions)
      .set({ visitorNotes: 'Running late' })
      .where(eq(sessions.id, live.session.id));
    expect((await board(live.session.id)).json().data.notes).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await board(live.session.id)).json().data.notes).toBe('Running late');
  });

  it("keeps each session's board to itself and to those who may see it", async () => {
    const one = await createLiveSession(t);
    const other = await createLiveSession(t, { visibility: 'private' });
    await database.db
      .update(companies)
      .set({ name: 'Other clinic' })
      .where(eq(companies.id, other.company.id));
    expect((await take(await createTestUser(t), one.session.id)).statusCode).toBe(201);

    // A member's read puts the private board in the cache; outsiders still get 404 from it.
    const inside = await board(other.session.id, other.owner);
    expect(inside.json().data).toMatchObject({ companyName: 'Other clinic', waiting: 0 });
    const outsider = await createTestUser(t);
    for (const caller of [outsider, undefined]) {
      const refused = await board(other.session.id, caller);
      expect(refused.statusCode).toBe(404);
      expect(refused.json().error.code).toBe('session_not_found');
    }
    const mine = (await board(one.session.id)).json().data;
    expect(mine).toMatchObject({ sessionId: one.session.id, waiting: 1 });
    expect(mine.companyName).not.toBe('Other clinic');
    // An unknown session is not found, and not remembered as anything else.
    expect((await board(crypto.randomUUID())).json().error.code).toBe('session_not_found');
  });
});
