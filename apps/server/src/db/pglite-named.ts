import {
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

type Named = {
  name: string;
  /** The parameters' types PostgreSQL inferred, which pick each value's serializer. */
  paramTypes: number[];
  /** The statement's row description (none for a statement that returns no rows). */
  rowDescription: BackendMessage[];
};

/**
 * PGlite's `query()` sends each statement unnamed: parsed, described and planned anew on every
 * call, which was about two thirds of PGlite's time on the token path (docs/PERFORMANCE.md,
 * "PGlite's statements prepared once"). This runs every statement text as a named prepared
 * statement instead, parsed and described once per database and then only bound and executed,
 * as `preparedStatement` (prepared.ts) has a PostgreSQL server do, but for every statement.
 * Everything else (`exec`, listening, dumps) is PGlite's own.
 *
 * It speaks PGlite's public wire-protocol API (`execProtocolStream`, `runExclusive`,
 * `protocol.serialize`, `parse.parseResults`) exactly as `query()` does, so answers, type
 * parsing and errors are the same.
 */
export function namedStatements(
  client: PGlite,
  /** Statement texts kept prepared; the least recently used one is closed past it. */
  { maxStatements = 500 } = {},
): PGlite {
  const named = new Map<string, Named>();
  let counter = 0;
  const send = (message: Uint8Array, options?: QueryOptions) =>
    client.execProtocolStream(message, { syncToFs: false, onNotice: options?.onNotice });

  /** The named statement for `text`, prepared on first use (in the caller's exclusive turn). */
  async function prepared(text: string, options?: QueryOptions): Promise<Named> {
    const known = named.get(text);
    if (known) {
      // Most recently used last, so the first entry is the one to close.
      named.delete(text);
      named.set(text, known);
      return known;
    }
    if (named.size >= maxStatements) {
      const [oldestText, oldest] = named.entries().next().value as [string, Named];
      named.delete(oldestText);
      await send(protocol.serialize.close({ type: 'S', name: oldest.name }));
    }
    const name = `upnext_${++counter}`;
    await send(protocol.serialize.parse({ name, text, types: options?.paramTypes }), options);
    const description = await send(protocol.serialize.describe({ type: 'S', name }), options);
    const statement = {
      name,
      paramTypes: parse.parseDescribeStatementResults(description),
      rowDescription: description.filter((message) => message.name === 'rowDescription'),
    };
    named.set(text, statement);
    return statement;
  }

  async function run<T>(text: string, params: unknown[], options?: QueryOptions) {
    const messages: BackendMessage[] = [];
    try {
      const statement = await prepared(text, options);
      const values = params.map((value, index) => {
        if (value === null || value === undefined) return null;
        const type = statement.paramTypes[index] as number;
        const serializer = options?.serializers?.[type] ?? client.serializers[type];
        return serializer ? serializer(value) : String(value);
      });
      messages.push(
        ...statement.rowDescription,
        ...(await send(protocol.serialize.bind({ statement: statement.name, values }), options)),
        ...(await send(protocol.serialize.execute({}), options)),
      );
    } catch (error) {
      // As query() reports it: the statement and its values on the database's error.
      throw Object.assign(error as object, { query: text, params, queryOptions: options });
    } finally {
      messages.push(...(await send(protocol.serialize.sync(), options)));
    }
    return parse.parseResults(messages, client.parsers, options)[0] as Results<T>;
  }

  // PGlite's own: a blob (COPY) needs its file handling.
  const own = (options?: QueryOptions) => options?.blob !== undefined;

  async function query<T>(text: string, params: unknown[] = [], options?: QueryOptions) {
    if (own(options)) return client.query<T>(text, params, options);
    // As query(): not inside another caller's transaction, one statement at a time.
    return client._runExclusiveTransaction(() =>
      client.runExclusive(async () => {
        const results = await run<T>(text, params, options);
        await client.syncToFs();
        return results;
      }),
    );
  }

  function inTransaction(tx: Transaction): Transaction {
    const txQuery = async <T>(text: string, params: unknown[] = [], options?: QueryOptions) => {
      if (tx.closed) throw new Error('Transaction is closed');
      if (own(options)) return tx.query<T>(text, params, options);
      return client.runExclusive(() => run<T>(text, params, options));
    };
    return new Proxy(tx, {
      get: (target, property, receiver) =>
        property === 'query' ? txQuery : Reflect.get(target, property, receiver),
    });
  }

  const transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    client.transaction((tx) => callback(inTransaction(tx)));

  return new Proxy(client, {
    get: (target, property, receiver) => {
      if (property === 'query') return query;
      if (property === 'transaction') return transaction;
      return Reflect.get(target, property, receiver);
    },
  });
}
