import pg from 'pg';

/** What Drizzle's transactions start with: `begin`, or `begin isolation level …`. */
const BEGIN = /^begin\b/;
/** How Drizzle ends one (a savepoint's release and rollback look otherwise). */
const END = /^(commit|rollback)$/;

/** What `begin` answers; Drizzle reads nothing of it. */
const BEGUN = { command: 'BEGIN', rowCount: null, oid: 0, rows: [], fields: [] };

type QueryConfig = pg.QueryConfig & { submit?: unknown };

/** A statement as Drizzle sends it (a config, no callback, no values) whose text is `text`. */
function isDrizzleStatement(config: unknown, values: unknown, callback: unknown, text: RegExp) {
  return (
    typeof config === 'object' &&
    config !== null &&
    typeof (config as QueryConfig).submit !== 'function' &&
    typeof (config as QueryConfig).text === 'string' &&
    text.test((config as QueryConfig).text) &&
    callback === undefined &&
    (values === undefined || (Array.isArray(values) && values.length === 0))
  );
}

/**
 * A pool connection of the PostgreSQL driver: opening it may take `connectMs`, however long
 * the pool's queue waits, and a transaction's `begin` goes out with its first statement, in
 * one write, instead of costing a round trip of its own (node-postgres's pipeline mode, which
 * the pool turns on, sends a statement without waiting for the one before: docs/PERFORMANCE.md,
 * "One round trip less in every transaction").
 *
 * Only Drizzle's `begin` (a query config with no values) waits, for whatever comes next on the
 * connection. Drizzle always ends a transaction with `commit` or `rollback`: when nothing came
 * between, there is nothing to end on the server, and they answer at once.
 */
export function pooledClient(connectMs: number) {
  return class PooledClient extends pg.Client {
    /** The `begin` of a transaction whose first statement has not come yet. */
    #begin: QueryConfig | undefined;

    constructor(config: pg.ClientConfig = {}) {
      super({ ...config, connectionTimeoutMillis: connectMs, pipeline: true } as pg.ClientConfig);
    }

    // node-postgres types `query` as overloads; one signature serves them all here.
    // biome-ignore lint/suspicious/noExplicitAny: the overloads' union of arguments and results
    override query(config: any, values?: any, callback?: any): any {
      const begin = this.#begin;
      if (begin === undefined) {
        if (isDrizzleStatement(config, values, callback, BEGIN)) {
          this.#begin = config;
          return Promise.resolve(BEGUN);
        }
        return super.query(config, values, callback);
      }
      this.#begin = undefined;
      if (isDrizzleStatement(config, values, callback, END)) {
        return Promise.resolve({ ...BEGUN, command: (config as QueryConfig).text.toUpperCase() });
      }
      // Corked, the two go out in one write; the statement answers once both have answered.
      const stream = this.connection.stream;
      stream.cork();
      try {
        const began: Promise<unknown> = super.query(begin);
        const answered: unknown = super.query(config, values, callback);
        if (!(answered instanceof Promise)) {
          // A callback or a submittable answers by itself (a failed begin is a broken connection).
          began.catch(() => {});
          return answered;
        }
        return Promise.all([began, answered]).then(([, result]) => result);
      } finally {
        stream.uncork();
      }
    }
  };
}
