import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testDrivers } from '../test/database.ts';
import type { Tx } from './client.ts';
import { commitWithLast } from './pooled-client.ts';

/** The pooled client a Drizzle transaction runs on. */
const clientOf = (tx: Tx) => (tx._.session as unknown as { client: pg.Client }).client;

/** The rows of a bare statement's answer. */
const rowsOf = (answer: unknown) => (answer as { rows: Record<string, unknown>[] }).rows;

/**
 * What goes over one connection: each message written (its type byte) and each answer the
 * server marks done (ReadyForQuery), in order.
 */
function traceWire(client: pg.Client) {
  const { connection } = client as unknown as {
    connection: pg.Connection & { stream: NodeJS.WritableStream };
  };
  const trace: string[] = [];
  const write = connection.stream.write.bind(connection.stream);
  connection.stream.write = ((chunk: Buffer, ...rest: unknown[]) => {
    trace.push(`send ${String.fromCharCode(chunk[0] as number)}`);
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof connection.stream.write;
  connection.on('readyForQuery', () => trace.push('ready'));
  return trace;
}

for (const driver of testDrivers) {
  describe(`a transaction's last statement with its commit (${driver})`, () => {
    let database: TestDatabase;

    beforeAll(async () => {
      database = await createTestDatabase(driver);
      await database.db.execute(sql`create table committed_with (id int primary key)`);
    });
    afterAll(() => database?.close());

    const ids = async () =>
      rowsOf(await database.db.execute(sql`select id from committed_with order by id`)).map(
        (row) => row.id,
      );

    it('commits what the transaction wrote, the last statement included, and answers it', async () => {
      const inserted = await database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into committed_with values (${1})`);
        return commitWithLast(tx, () =>
          tx.execute(sql`insert into committed_with values (${2}) returning id`),
        );
      });
      expect(rowsOf(inserted)).toEqual([{ id: 2 }]);
      expect(await ids()).toEqual([1, 2]);
    });

    it('keeps nothing when the last statement fails, and leaves the connection clean', async () => {
      await expect(
        database.db.transaction(async (tx) => {
          await tx.execute(sql`insert into committed_with values (${10})`);
          await commitWithLast(tx, () => tx.execute(sql`insert into committed_with values (${1})`));
        }),
      ).rejects.toMatchObject({ cause: { code: '23505' } });
      expect(await ids()).toEqual([1, 2]);
      // No connection was left inside the transaction.
      const open = await database.db.execute(
        sql`select count(*)::int as open from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
      );
      expect(rowsOf(open)).toEqual([{ open: 0 }]);
    });

    it.runIf(driver === 'postgres')(
      'sends the last statement and the commit together, and refuses a statement after them',
      async () => {
        let trace: string[] = [];
        const after = database.db.transaction(async (tx) => {
          await tx.execute(sql`select ${1}::int`);
          trace = traceWire(clientOf(tx));
          await commitWithLast(tx, () => tx.execute(sql`insert into committed_with values (${3})`));
          await tx.execute(sql`insert into committed_with values (${4})`);
        });
        await expect(after).rejects.toMatchObject({
          cause: { message: 'The transaction has committed: nothing may follow it' },
        });
        // The insert (parse, bind, describe, execute, sync) and the commit, then both answers.
        expect(trace).toEqual([
          'send P',
          'send B',
          'send D',
          'send E',
          'send S',
          'send Q',
          'ready',
          'ready',
        ]);
        // What the last statement wrote was committed; what came after never ran.
        expect(await ids()).toEqual([1, 2, 3]);
      },
    );
  });
}
