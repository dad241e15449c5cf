import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client.ts';

/**
 * Runs independent statements at once on the pool, and one after the other in a transaction:
 * its one connection takes one statement at a time, so sending them together only queues them
 * in node-postgres (which warns that pg 9 will refuse it) and saves nothing.
 */
export async function queryAll<T extends readonly unknown[] | []>(
  db: Db | Tx,
  statements: { [K in keyof T]: () => Promise<T[K]> },
): Promise<T> {
  if (!(db instanceof PgTransaction)) {
    return (await Promise.all(statements.map((run) => run()))) as unknown as T;
  }
  const results: unknown[] = [];
  for (const run of statements) results.push(await run());
  return results as unknown as T;
}
