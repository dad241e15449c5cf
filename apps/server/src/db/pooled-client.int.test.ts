import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testDrivers } from '../test/database.ts';

/** The rows of a bare statement's answer. */
const rowsOf = (answer: unknown) => (answer as { rows: Record<string, unknown>[] }).rows;

import type { Tx } from './client.ts';

/** The pooled client a Drizzle transaction runs on. */
const clientOf = (tx: Tx) => (tx._.session as unknown as { client: pg.Client }).client;

/**
 * What goes over one connection: each message written (its type byte) and each answer the
 * server marks done (ReadyForQuery), in order.
 */
function traceWire(client: pg.Client) {
  const connection = (
    client as unknown as { connection: pg.Connection & { stream: NodeJS.WritableStream } }
  ).connection;
  const trace: string[] = [];
  const write = connection.stream.write.bind(connection.stream);
  connection.stream.write = ((chunk: Buffer, ...rest: unknown[]) => {
    trace.push(`send ${String.fromCharCode(chunk[0] as number)}`);
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof connection.stream.write;
  connection.on('readyForQuery', () => trace.push('ready'));
  return trace;
}

describe.skipIf(!testDrivers.includes('postgres'))('the PostgreSQL pool connection', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    await database.db.execute(sql`create table pipelined (id int primary key)`);
  });
  afterAll(() => database?.close());

  it("sends a transaction's begin with its first statement, before the server answers it", async () => {
    let trace: string[] = [];
    await database.db.transaction(async (tx) => {
      trace = traceWire(clientOf(tx));
      await tx.execute(sql`select ${1}::int`);
    });
    // begin (a simple query), the statement (parse, bind, describe, execute, sync), and only
    // then the two answers; commit after.
    expect(trace).toEqual([
      'send Q',
      'send P',
      'send B',
      'send D',
      'send E',
      'send S',
      'ready',
      'ready',
      'send Q',
      'ready',
    ]);
  });

  it('keeps a transaction whole: a failed statement undoes the earlier ones, on a clean connection', async () => {
    const failing = database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into pipelined values (${1})`);
      await tx.execute(sql`insert into pipelined values (${1})`);
    });
    await expect(failing).rejects.toMatchObject({ cause: { code: '23505' } });
    // The first statement fails: the begin it went out with is rolled back too.
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1 / ${0}::int`);
      }),
    ).rejects.toMatchObject({ cause: { code: '22012' } });
    const count = await database.db.execute(sql`select count(*)::int as n from pipelined`);
    expect(rowsOf(count)).toEqual([{ n: 0 }]);
    // Every pooled connection is outside any transaction again: a statement on its own is its
    // own transaction, which started with it (a simple query: one timestamp for both).
    const fresh = await Promise.all(
      Array.from({ length: 20 }, () =>
        database.db.execute(sql`select now() = statement_timestamp() as alone`),
      ),
    );
    expect(fresh.map((answer) => rowsOf(answer)[0]?.alone)).toEqual(Array(20).fill(true));
  });

  it('applies the options of a begin it held, and ends an empty transaction without a word', async () => {
    const level = await database.db.transaction(
      async (tx) =>
        rowsOf(await tx.execute(sql`select current_setting('transaction_isolation') as level`))[0],
      { isolationLevel: 'serializable' },
    );
    expect(level).toEqual({ level: 'serializable' });
    let trace: string[] = [];
    await database.db.transaction(async (tx) => {
      trace = traceWire(clientOf(tx));
    });
    expect(trace).toEqual([]);
    await expect(
      database.db.transaction(async (tx) => {
        trace = traceWire(clientOf(tx));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(trace).toEqual([]);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into pipelined values (${2})`);
    });
    expect(rowsOf(await database.db.execute(sql`select id from pipelined`))).toEqual([{ id: 2 }]);
  });
});
