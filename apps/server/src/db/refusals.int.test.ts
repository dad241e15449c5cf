import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testDrivers } from '../test/database.ts';
import { isForeignKeyViolation, isUniqueViolation, refusalOf, sqlStateOf } from './refusals.ts';

describe.each(testDrivers)('database refusals read by meaning (%s)', (driver) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(() => database.close());

  /** The error a statement throws on this driver (wrapped by Drizzle, as services see it). */
  const refusal = async (...statements: ReturnType<typeof sql>[]) => {
    try {
      await database.db.transaction(async (tx) => {
        for (const statement of statements) await tx.execute(statement);
      });
    } catch (error) {
      return error;
    }
    throw new Error('the statements were not refused');
  };

  const tables = [
    sql`create temp table parent (id int primary key) on commit drop`,
    sql`create temp table child (parent int references parent (id) on delete restrict) on commit drop`,
    sql`insert into parent values (1)`,
    sql`insert into child values (1)`,
  ];

  it('a duplicate key is a conflict', async () => {
    const error = await refusal(...tables, sql`insert into parent values (1)`);
    expect(isUniqueViolation(error)).toBe(true);
    expect(refusalOf(error)).toBe('conflict');
  });

  it('deleting a row still referenced (ON DELETE RESTRICT) is a conflict', async () => {
    const error = await refusal(...tables, sql`delete from parent where id = 1`);
    expect(isForeignKeyViolation(error)).toBe(true);
    expect(refusalOf(error)).toBe('conflict');
  });

  it('values the database cannot take are invalid: NUL in text and JSON, int4 overflow', async () => {
    const nulText = await refusal(sql`select ${'a\u0000b'}::text`);
    const nulJson = await refusal(sql`select ${'{"a":"\\u0000"}'}::jsonb`);
    const tooBig = await refusal(sql`select ${2147483648}::int4`);
    expect([nulText, nulJson, tooBig].map(sqlStateOf)).toEqual(['22021', '22P05', '22003']);
    expect([nulText, nulJson, tooBig].map(refusalOf)).toEqual(['invalid', 'invalid', 'invalid']);
  });

  it('other failures are not blamed on the caller', async () => {
    expect(refusalOf(await refusal(sql`select 1 / 0`))).toBeUndefined();
    expect(refusalOf(await refusal(sql`select * from no_such_table`))).toBeUndefined();
    expect(refusalOf(new Error('boom'))).toBeUndefined();
  });
});
