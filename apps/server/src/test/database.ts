import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase, POSTGRES_TIMEOUTS } from '../db/client.ts';

/**
 * Integration tests run on embedded PGlite always, and also on a PostgreSQL server when
 * TEST_DATABASE_URL points at one (CI sets it), so both drivers keep the same semantics.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
export const testDrivers: Array<'pglite' | 'postgres'> = serverUrl
  ? ['pglite', 'postgres']
  : ['pglite'];

export type TestDatabase = Database & { url?: string };

/**
 * The product's limits (POSTGRES_TIMEOUTS) shed load after seconds; races of hundreds of
 * requests on a busy two-core machine queue longer than that on purpose, to test what the
 * rules give, so test databases wait longer. db/outage.int.test.ts uses the product's own.
 */
const raceTimeouts = {
  ...POSTGRES_TIMEOUTS,
  statementMs: 60_000,
  replyMs: 65_000,
  poolWaitMs: 120_000,
};

/** The migrated data directory the global set-up made (pglite-template.global.ts), read once. */
let pgliteTemplate: Promise<Blob> | undefined;

/** A fresh, migrated database of its own: in memory for PGlite, a new database on the server. */
export async function createTestDatabase(driver: 'pglite' | 'postgres'): Promise<TestDatabase> {
  if (driver === 'pglite') {
    pgliteTemplate ??= readFile(inject('pgliteTemplate')).then((bytes) => new Blob([bytes]));
    const database = await openDatabase({ driver: 'pglite', loadDataDir: await pgliteTemplate });
    await database.migrate(); // nothing left to apply: checks the template is current
    return database;
  }
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `upnext_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = withDatabase(serverUrl, name);
  const database = await openDatabase({
    driver: 'postgres',
    url,
    poolSize: 20,
    timeouts: raceTimeouts,
  });
  await database.migrate();
  return {
    ...database,
    url,
    close: async () => {
      await database.close();
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
