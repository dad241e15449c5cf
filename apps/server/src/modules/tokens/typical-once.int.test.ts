import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createLiveSession } from '../../test/live-session.ts';
import * as repo from './tokens.repository.ts';

// The product's own look-up, counted: tokens.line.ts calls this one.
vi.mock('./tokens.repository.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('./tokens.repository.ts')>();
  return { ...original, recentServiceMedian: vi.fn(original.recentServiceMedian) };
});

describe.each(testDrivers)("a queue's typical service time (%s)", (driver) => {
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

  it('is looked up once for a burst of concurrent issues', async () => {
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
