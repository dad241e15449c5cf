import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';

describe('the embedded database shares the event loop', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  });
  afterAll(() => database.close());

  it('lets I/O run between statements queued by concurrent requests', async () => {
    let finished = 0;
    const statements = Array.from({ length: 20 }, () =>
      database.db.execute(sql`select 1`).then(() => {
        finished += 1;
      }),
    );
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await tx.execute(sql`select 2`);
    });
    // What a new connection or a request's bytes would see: a callback of the next loop turn.
    const finishedByNextTurn = await new Promise<number>((resolve) =>
      setImmediate(() => resolve(finished)),
    );
    await Promise.all([...statements, transaction]);
    expect(finished).toBe(20);
    expect(finishedByNextTurn).toBeLessThanOrEqual(1);
  });
});
