import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queues } from '../db/schema/queues.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../test/database.ts';
import { cachedSessionAudience } from './realtime.repository.ts';
import { createSessionFixture } from './testing.ts';

describe.each(testDrivers)('the session audience cache (%s)', (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('asks the database once for many subscribers at once, and again when the entry is old', async () => {
    const fixture = await createSessionFixture(database.db);
    const select = vi.spyOn(database.db, 'select');
    try {
      const audienceOf = cachedSessionAudience(database.db, 200);
      const answers = await Promise.all(
        Array.from({ length: 100 }, () => audienceOf(fixture.sessionId)),
      );
      expect(select).toHaveBeenCalledTimes(1);
      expect(new Set(answers).size).toBe(1);
      expect(answers[0]).toMatchObject({ queueId: fixture.queueId, visibility: 'public' });

      await database.db
        .update(queues)
        .set({ visibility: 'private' })
        .where(eq(queues.id, fixture.queueId));
      expect((await audienceOf(fixture.sessionId))?.visibility).toBe('public');
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect((await audienceOf(fixture.sessionId))?.visibility).toBe('private');
      expect(select).toHaveBeenCalledTimes(2);
    } finally {
      select.mockRestore();
    }
  });
});
