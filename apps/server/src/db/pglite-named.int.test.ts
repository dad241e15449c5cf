import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedStatements } from './pglite-named.ts';

/** The first byte of each wire-protocol message the database was sent: P(arse), B(ind)... */
function recordMessages(client: PGlite) {
  const sent: string[] = [];
  const send = client.execProtocolStream.bind(client);
  client.execProtocolStream = (message, options) => {
    sent.push(String.fromCharCode(message[0] as number));
    return send(message, options);
  };
  return sent;
}

const preparedCount = async (client: PGlite) =>
  (await client.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements'))
    .rows[0]?.n;

describe("PGlite's statements, prepared once", () => {
  let client: PGlite;
  let named: PGlite;
  let sent: string[];

  beforeAll(async () => {
    client = await PGlite.create();
    await client.exec(`
      create table visits (
        id int primary key, name text not null, at timestamptz, tags text[], data jsonb, big int8
      )`);
    sent = recordMessages(client);
    named = namedStatements(client, { maxStatements: 3 });
  });
  afterAll(() => client.close());

  it('answers exactly as PGlite’s own query(), in both row modes', async () => {
    const at = new Date('2026-11-27T10:00:00.000Z');
    const insert = 'insert into visits values ($1, $2, $3, $4, $5, $6) returning *';
    const values = [1, 'Ada', at, ['a', 'b'], { seen: [1, 2] }, 9_007_199_254_740_993n];
    const ours = await named.query(insert, values);
    const select = 'select * from visits where id = $1 and name = $2';
    for (const rowMode of ['object', 'array'] as const) {
      expect(await named.query(select, [1, 'Ada'], { rowMode })).toEqual(
        await client.query(select, [1, 'Ada'], { rowMode }),
      );
    }
    expect(ours.affectedRows).toBe(1);
    expect(ours.rows).toEqual([
      { id: 1, name: 'Ada', at, tags: ['a', 'b'], data: { seen: [1, 2] }, big: 9007199254740993n },
    ]);
    const none = 'select * from visits where name = $1';
    expect(await named.query(none, [null])).toEqual(await client.query(none, [null]));
    const update = 'update visits set name = $1 where id > $2';
    expect((await named.query(update, ['Bo', 0])).affectedRows).toBe(1);
  });

  it('parses each text once, then only binds and executes it', async () => {
    const text = 'select $1::int + 1 as next';
    sent.length = 0;
    const answers = [];
    for (let n = 1; n <= 4; n += 1) answers.push((await named.query(text, [n])).rows[0]);
    expect(answers).toEqual([{ next: 2 }, { next: 3 }, { next: 4 }, { next: 5 }]);
    expect(sent.filter((type) => type === 'P')).toHaveLength(1);
    expect(sent.filter((type) => type === 'B')).toHaveLength(4);
  });

  it('keeps at most its limit of statements, closing the least recently used', async () => {
    for (let n = 1; n <= 6; n += 1) await named.query(`select ${n} as n where $1::int > 0`, [n]);
    expect(await preparedCount(client)).toBe(3);
    // A closed one is prepared again when it comes back.
    expect((await named.query('select 1 as n where $1::int > 0', [1])).rows).toEqual([{ n: 1 }]);
  });

  it('reports a database error as query() does, and the next statement runs', async () => {
    const insert = 'insert into visits (id, name) values ($1, $2)';
    const refused = await named.query(insert, [1, 'Again']).catch((error: unknown) => error);
    const own = await client.query(insert, [1, 'Again']).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: '23505', query: insert, params: [1, 'Again'] });
    expect((refused as Error).message).toBe((own as Error).message);
    const parseFailure = await named.query('selec 1').catch((error: unknown) => error);
    expect(parseFailure).toMatchObject({ code: '42601' });
    expect((await named.query('select count(*)::int as n from visits')).rows).toEqual([{ n: 1 }]);
  });

  it('runs a transaction’s statements in it: its own writes, rollback, and nothing after it ends', async () => {
    let handle: Awaited<Parameters<Parameters<PGlite['transaction']>[0]>[0]> | undefined;
    await named
      .transaction(async (tx) => {
        handle = tx;
        await tx.query('insert into visits (id, name) values ($1, $2)', [2, 'Cy']);
        const seen = await tx.query('select name from visits where id = $1', [2]);
        expect(seen.rows).toEqual([{ name: 'Cy' }]);
        throw new Error('roll back');
      })
      .catch(() => {});
    expect((await named.query('select name from visits where id = $1', [2])).rows).toEqual([]);
    await expect(handle?.query('select 1')).rejects.toThrow('Transaction is closed');
  });

  it('never runs a statement inside a transaction that is running meanwhile', async () => {
    let outside: Promise<unknown> | undefined;
    await named.transaction(async (tx) => {
      await tx.query('insert into visits (id, name) values ($1, $2)', [3, 'Di']);
      outside = named.query('select name from visits where id = $1', [3]).then((a) => a.rows);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await tx.query('update visits set name = $1 where id = $2', ['Dee', 3]);
    });
    // Asked in the middle, it waited for the commit and saw the transaction's final state.
    expect(await outside).toEqual([{ name: 'Dee' }]);
  });
});
