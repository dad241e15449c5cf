import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testDrivers } from '../test/database.ts';
import type { Db, Tx } from './client.ts';
import { queryAll } from './query-all.ts';

describe.each(testDrivers)('independent statements (%s)', (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(() => database.close());

  const statement = (db: Db | Tx, name: string, log: string[]) => async () => {
    log.push(`start ${name}`);
    await db.execute(sql`select pg_sleep(0.02)`);
    log.push(`end ${name}`);
    return name;
  };

  it('run at once on the pool', async () => {
    const log: string[] = [];
    const db = database.db;
    const results = await queryAll(db, [statement(db, 'a', log), statement(db, 'b', log)]);
    expect(results).toEqual(['a', 'b']);
    expect(log.slice(0, 2)).toEqual(['start a', 'start b']);
  });

  it('run one after the other in a transaction', async () => {
    const log: string[] = [];
    const results = await database.db.transaction((tx) =>
      queryAll(tx, [statement(tx, 'a', log), statement(tx, 'b', log), statement(tx, 'c', log)]),
    );
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });
});
