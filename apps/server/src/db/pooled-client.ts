import pg from 'pg';
import type { Tx } from './client.ts';

/** How Drizzle ends a transaction (a savepoint's release and rollback look otherwise). */
const END = /^(commit|rollback)$/;

/** A statement as Drizzle sends its own: a config with the text, no values, no callback. */
function isDrizzleEnd(config: unknown, values: unknown, callback: unknown) {
  const text = (config as { text?: unknown } | null)?.text;
  return (
    typeof text === 'string' &&
    END.test(text) &&
    callback === undefined &&
    (values === undefined || (Array.isArray(values) && values.length === 0))
  );
}

/**
 * A pool connection of the PostgreSQL driver, in node-postgres's pipeline mode (a statement
 * goes out without waiting for the answer to the one before), which can send a transaction's
 * last statement together with its commit: `commitWithLast`.
 */
class PooledClient extends pg.Client {
  /** Armed: the next statement goes with a commit. */
  #commitNext = false;
  /** The commit already sent with the last statement, which Drizzle's own then answers with. */
  #committed: Promise<unknown> | undefined;

  armCommit() {
    this.#commitNext = true;
  }

  // node-postgres types `query` as overloads; one signature serves them all here.
  // biome-ignore lint/suspicious/noExplicitAny: the overloads' union of arguments and results
  override query(config: any, values?: any, callback?: any): any {
    const committed = this.#committed;
    if (committed !== undefined) {
      if (!isDrizzleEnd(config, values, callback)) {
        return Promise.reject(new Error('The transaction has committed: nothing may follow it'));
      }
      // Drizzle's commit, or its rollback after the last statement failed: either way the
      // server has ended the transaction already.
      this.#committed = undefined;
      return committed;
    }
    if (!this.#commitNext || callback !== undefined || isDrizzleEnd(config, values, callback)) {
      this.#commitNext = false;
      return super.query(config, values, callback);
    }
    this.#commitNext = false;
    // Corked, the two go out in one write.
    const stream = this.connection.stream;
    stream.cork();
    try {
      const answered: Promise<unknown> = super.query(config, values);
      const ended: Promise<pg.QueryResult> = super.query({ text: 'commit' });
      // A commit of a transaction that an error ended answers ROLLBACK, without an error.
      const commit = ended.then((result) => {
        if (result.command !== 'COMMIT') throw new Error('The transaction was rolled back');
        return result;
      });
      this.#committed = commit.catch(() => ({ command: 'ROLLBACK', rows: [], fields: [] }));
      return Promise.all([answered, commit]).then(([result]) => result);
    } finally {
      stream.uncork();
    }
  }
}

/** The pool's connections: opening one may take `connectMs`, however long the pool's queue waits. */
export function pooledClient(connectMs: number) {
  return class extends PooledClient {
    constructor(config: pg.ClientConfig = {}) {
      super({ ...config, connectionTimeoutMillis: connectMs, pipeline: true } as pg.ClientConfig);
    }
  };
}

/**
 * Runs `statement`, the last of the transaction `tx`, with the transaction's commit: on
 * PostgreSQL both go out in one write and are answered together, so the locks the transaction
 * holds are not held over one more round trip through the event loop (docs/PERFORMANCE.md,
 * "The last statement with its commit"). It resolves once both have succeeded; nothing may run
 * in `tx` after it. On PGlite, where there is no round trip to save, it runs as any other.
 */
export function commitWithLast<T>(tx: Tx, statement: () => Promise<T>): Promise<T> {
  const client = (tx._.session as unknown as { client: unknown }).client;
  if (client instanceof PooledClient) client.armCommit();
  return statement();
}
