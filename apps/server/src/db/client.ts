import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { type ExtractTablesWithRelations, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { copyPgdataTemplate, reshapedPgliteWasm } from './pgdata-template.ts';
import { namedStatements } from './pglite-named.ts';
import { pooledClient } from './pooled-client.ts';
import * as schema from './schema/index.ts';

type Schema = typeof schema;
/** The typed client services and repositories use; the same for both drivers. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A transaction handle has the same query API as the client. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  readonly db: Db;
  readonly driver: 'pglite' | 'postgres';
  /** Apply committed migrations; safe when several instances start at once. */
  migrate(): Promise<void>;
  /** Round trip to the database, for health checks. */
  ping(): Promise<void>;
  /** The connection pool's state (PostgreSQL; PGlite has one connection and no pool). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** PGlite's data directory as a tarball, which `loadDataDir` starts another database from. */
  dumpDataDir?(): Promise<Blob>;
  /**
   * Calls `onNotify` after each commit that ran `pg_notify(channel, ...)`, on any instance,
   * and once when listening (re)starts, for what was written meanwhile. Resolves to `unlisten`.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | {
      driver: 'postgres';
      url: string;
      poolSize?: number;
      /** Tests that overload the machine on purpose (races of hundreds) wait longer. */
      timeouts?: PostgresTimeouts;
    }
  /**
   * `dataDir` undefined keeps the database in memory (tests), which `loadDataDir` (a
   * `dumpDataDir` tarball) fills instead of initdb: tests start from one migrated database.
   */
  | {
      driver: 'pglite';
      dataDir?: string;
      loadDataDir?: Blob;
      /** copyPgdataTemplate(dataDir) when the caller started it already (serve.ts). */
      templateCopied?: Promise<boolean>;
    };

const migrationsFolder = join(import.meta.dirname, 'migrations');
// Any fixed number: serialises migrations across instances sharing one PostgreSQL.
const MIGRATION_LOCK_ID = 727_001;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return beginOpenDatabase(options)();
}

/**
 * Opening in two steps, for the server's start (serve.ts): this starts what takes long on other
 * threads (a first start's copy of the template, compiling PGlite's WASM) and returns at once;
 * the function it returns finishes opening. The server loads the rest of its modules in
 * between, which keeps this thread busy for most of a second.
 */
export function beginOpenDatabase(options: DatabaseOptions): () => Promise<Database> {
  if (options.driver === 'postgres') return () => openPostgres(options);
  const { dataDir, loadDataDir } = options;
  // A first start copies the build's migrated template instead of running initdb.
  const copied =
    options.templateCopied ?? (dataDir ? copyPgdataTemplate(dataDir) : Promise.resolve(false));
  const wasm = compilePgliteWasm();
  // Awaited below; not an unhandled rejection while the server loads its modules meanwhile.
  copied.catch(() => {});
  return async () => {
    if (dataDir && !(await copied)) await mkdir(dataDir, { recursive: true });
    return openPglite(await PGlite.create(dataDir, { loadDataDir, pgliteWasmModule: await wasm }));
  };
}

type WasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;
// Node's global; the ES libraries the server compiles against do not declare it.
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> };
let pgliteWasm: Promise<WasmModule> | undefined;
/** V8 compiles on its own threads; one module for every instance of the process (tests). */
function compilePgliteWasm(): Promise<WasmModule> {
  pgliteWasm ??= WebAssembly.compile(reshapedPgliteWasm());
  return pgliteWasm;
}

function openPglite(client: PGlite): Database {
  const db = drizzlePglite(onePerTurn(namedStatements(client)), { schema }) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    // One connection: nothing else can run migrations concurrently.
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    ping: async () => {
      await client.query('select 1');
    },
    dumpDataDir: () => client.dumpDataDir('none'),
    listen: async (channel, onNotify) => {
      const unlisten = await client.listen(channel, () => onNotify());
      onNotify();
      return () => unlisten();
    },
    close: () => client.close(),
  };
}

/**
 * PGlite runs on this thread, and its work goes on in promise callbacks that never wait for
 * I/O: under load, one turn of the event loop would run many requests' statements back to
 * back, and Node, which accepts one new connection per turn, would leave clients waiting
 * seconds to connect. So statements and transactions (each whole) start one per turn, in the
 * order they were asked for.
 */
function onePerTurn(client: PGlite): PGlite {
  const waiting: Array<() => void> = [];
  let scheduled = false;
  const next = () => {
    waiting.shift()?.();
    scheduled = waiting.length > 0;
    if (scheduled) setImmediate(next);
  };
  const turn = () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!scheduled) {
        scheduled = true;
        setImmediate(next);
      }
    });
  const methods = ['query', 'exec', 'transaction'] as const;
  const inTurn = new Map<PropertyKey, unknown>(
    methods.map((name) => {
      const method = client[name] as (...args: unknown[]) => Promise<unknown>;
      return [
        name,
        async (...args: unknown[]) => {
          await turn();
          return method.apply(client, args);
        },
      ];
    }),
  );
  return new Proxy(client, {
    get: (target, property, receiver) =>
      inTurn.get(property) ?? Reflect.get(target, property, receiver),
  });
}

/**
 * Limits that turn a database that stopped answering into an error within seconds (then 503
 * `database_unavailable`, see db/unavailable.ts) instead of requests hanging: opening a
 * connection, a statement on the server, a reply on the wire (a blackholed link), and the
 * wait for a free pool connection (longer: a burst of requests queues there normally).
 */
export const POSTGRES_TIMEOUTS = {
  connectMs: 3000,
  statementMs: 4000,
  replyMs: 5000,
  idleInTransactionMs: 10_000,
  poolWaitMs: 10_000,
};
type PostgresTimeouts = typeof POSTGRES_TIMEOUTS;

async function openPostgres({
  url,
  poolSize = 10,
  timeouts = POSTGRES_TIMEOUTS,
}: {
  url: string;
  poolSize?: number;
  timeouts?: PostgresTimeouts;
}) {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    keepAlive: true,
    Client: pooledClient(timeouts.connectMs),
    connectionTimeoutMillis: timeouts.poolWaitMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.replyMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  const database: Database = {
    db,
    driver: 'postgres',
    migrate: async () => {
      // A connection of its own, without the pool's timeouts: waiting for another instance's
      // migrations (the lock) or a long migration is not an outage.
      const connection = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
      await connection.connect();
      try {
        // Session-level lock: released when this connection ends, also if we die.
        await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migrateNodePg(drizzleNodePg(connection), { migrationsFolder });
      } finally {
        await connection.end();
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    listen: (channel, onNotify) => listenPostgres(url, timeouts.connectMs, channel, onNotify),
    close: () => pool.end(),
  };
  return database;
}

/** How long a LISTEN connection that dropped waits before connecting again. */
const RELISTEN_MS = 2000;

/**
 * LISTEN holds a connection of its own (a pooled one would be handed to other queries). A
 * dropped connection is replaced until `unlisten`; the first connection failing rejects.
 */
async function listenPostgres(
  url: string,
  connectMs: number,
  channel: string,
  onNotify: () => void,
): Promise<() => Promise<void>> {
  let current: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const again = () => {
    if (stopped) return;
    retry = setTimeout(() => connect().catch(again), RELISTEN_MS);
    retry.unref();
  };
  const connect = async () => {
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: connectMs,
      keepAlive: true,
    });
    client.on('notification', () => onNotify());
    client.on('error', () => {}); // 'end' follows
    client.on('end', () => {
      if (current !== client) return;
      current = undefined;
      again();
    });
    try {
      await client.connect();
      await client.query(`listen ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await client.end();
      return;
    }
    current = client;
    onNotify();
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = undefined;
    await client?.end();
  };
}
