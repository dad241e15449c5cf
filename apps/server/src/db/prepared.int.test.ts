import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testDrivers } from '../test/database.ts';
import { preparedStatement } from './prepared.ts';

describe.each(testDrivers)('statements built once per connection (%s)', (driver) => {
  let database: TestDatabase;
  let builds = 0;
  const doubled = preparedStatement(`test_doubled_${driver}`, (db) => {
    builds += 1;
    return db
      .select({
        value: sql<number>`(${sql.placeholder('n')})::int * 2`,
        backend: sql<number>`pg_backend_pid()`,
      })
      .from(sql`(values (1)) as one(x)`);
  });

  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(() => database.close());

  it('is built once for the client and takes each call its own values', async () => {
    builds = 0;
    const values: number[] = [];
    for (let n = 1; n <= 5; n += 1) {
      const [row] = await doubled(database.db, { n });
      values.push(row?.value ?? 0);
    }
    expect(values).toEqual([2, 4, 6, 8, 10]);
    expect(builds).toBe(1);
  });

  it('is built once per connection that transactions run on', async () => {
    builds = 0;
    const backends = new Set<number>();
    const values: number[] = [];
    for (let n = 1; n <= 10; n += 1) {
      await database.db.transaction(async (tx) => {
        const [row] = await doubled(tx, { n });
        values.push(row?.value ?? 0);
        backends.add(row?.backend ?? 0);
      });
    }
    expect(values).toEqual([2, 4, 6, 8, 10, 12, 14, 16, 18, 20]);
    // A pooled client carries many transactions; a PGlite transaction is a handle of its own.
    expect(builds).toBe(driver === 'postgres' ? backends.size : 10);
    if (driver === 'postgres') expect(builds).toBeLessThan(10);
  });
});
