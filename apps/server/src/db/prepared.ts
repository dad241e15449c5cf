import type { Db, Tx } from './client.ts';

type Prepared<Values, Result> = { execute(values: Values): Promise<Result> };

/**
 * A statement that every request or every token issue runs, built by Drizzle once per database
 * connection instead of on every call: rebuilding the same SQL was half of the server's CPU on
 * the token path (docs/PERFORMANCE.md, "Statements built once"). `build` makes it on the given
 * handle with `sql.placeholder(...)` for each value; it is named, so PostgreSQL also parses and
 * plans it once per connection.
 *
 * Drizzle binds a prepared statement to the connection it was made on: it is kept per
 * connection (a pooled client, reused by every transaction it carries) and never run on another.
 * A handle without one of its own (a PGlite transaction) builds it each time.
 */
export function preparedStatement<Values extends Record<string, unknown>, Result>(
  name: string,
  build: (db: Db | Tx) => { prepare(name: string): Prepared<Values, Result> },
): (db: Db | Tx, values: Values) => Promise<Result> {
  const byConnection = new WeakMap<object, Prepared<Values, Result>>();
  return (db, values) => {
    const connection = connectionOf(db);
    let prepared = byConnection.get(connection);
    if (!prepared) {
      prepared = build(db).prepare(name);
      byConnection.set(connection, prepared);
    }
    return prepared.execute(values);
  };
}

/** The driver's client a Drizzle handle runs its statements on (the pool, a pooled client). */
function connectionOf(db: Db | Tx): object {
  return (db._.session as unknown as { client: object }).client;
}
