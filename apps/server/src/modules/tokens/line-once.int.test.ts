import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createLiveSession } from '../../test/live-session.ts';
import { createTestUser } from '../../test/users.ts';
import * as line from './tokens.line.ts';
import * as repo from './tokens.repository.ts';

// The product's own liveLine, counted: every importer (the service, the events) gets this one.
vi.mock('./tokens.line.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('./tokens.line.ts')>();
  return { ...original, liveLine: vi.fn(original.liveLine) };
});
// And the queue's typical service time, looked up by tokens.line.ts.
vi.mock('./tokens.repository.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('./tokens.repository.ts')>();
  return { ...original, recentServiceMedian: vi.fn(original.recentServiceMedian) };
});

describe.each(testDrivers)('the live line of a change (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  const published: Array<{ destination: string; body: Record<string, unknown> }> = [];

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(
      database,
      {},
      {
        publisher: {
          publish: (destination, body) =>
            published.push({ destination, body: body as Record<string, unknown> }),
        },
      },
    );
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  it('is computed once per call-next and shared by the answer, the topic and the holders', async () => {
    const live = await createLiveSession(t);
    const visitors = await Promise.all([1, 2, 3].map(() => createTestUser(t)));
    for (const visitor of visitors) {
      await t.app.inject({
        method: 'POST',
        url: '/api/queues/sessions/tokens',
        headers: visitor.headers,
        payload: { sessionId: live.session.id },
      });
    }
    const computed = vi.mocked(line.liveLine);
    computed.mockClear();
    published.length = 0;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/queues/sessions/next-token',
      headers: live.owner.headers,
      payload: { sessionId: live.session.id },
    });
    expect(response.statusCode).toBe(200);
    expect(computed).toHaveBeenCalledTimes(1);
    const state = published.find((p) => p.body.type === 'session.state')?.body;
    const moved = published.filter((p) => p.body.type === 'token.position_changed');
    expect(state).toMatchObject({ waitingCount: 2 });
    expect(moved.map((p) => p.body.position)).toEqual([1, 2]);
  });

  it("looks up the queue's typical service time once for a burst of concurrent issues", async () => {
    const live = await createLiveSession(t);
    const lookups = vi.mocked(repo.recentServiceMedian);
    lookups.mockClear();
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/queues/sessions/tokens',
          headers: live.owner.headers,
          payload: { sessionId: live.session.id, visitorName: `Walk-in ${i + 1}` },
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(12).fill(201));
    const forThisQueue = lookups.mock.calls.filter(([, queueId]) => queueId === live.queue.id);
    expect(forThisQueue).toHaveLength(1);
  });
});
