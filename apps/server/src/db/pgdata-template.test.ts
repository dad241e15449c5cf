import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';
import { copyPgdataTemplate } from './pgdata-template.ts';

// PGlite only: the template replaces PGlite's initdb on a first start.
describe('the PGlite data directory template', () => {
  let scratch: string;
  let template: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'upnext-template-'));
    template = join(scratch, 'template'); // made as build-pgdata-template.ts makes it
    const database = await openDatabase({ driver: 'pglite', dataDir: template });
    await database.migrate();
    await database.db.execute(sql`create table from_this_template (id int)`); // tells it apart
    await database.close();
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  async function appliedMigrations(dataDir: string): Promise<number> {
    const database = await openDatabase({ driver: 'pglite', dataDir });
    try {
      await database.db.execute(sql`select * from from_this_template`);
      const result = await database.db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      return (result as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0;
    } finally {
      await database.close();
    }
  }

  it('gives a first start a database with every migration applied', async () => {
    const dataDir = join(scratch, 'first', 'pgdata');
    await mkdir(join(scratch, 'first'));
    expect(await copyPgdataTemplate(dataDir, template)).toBe(true);
    const journal = JSON.parse(
      await readFile(join(import.meta.dirname, 'migrations', 'meta', '_journal.json'), 'utf8'),
    ) as { entries: unknown[] };
    expect(await appliedMigrations(dataDir)).toBe(journal.entries.length);
    expect(existsSync(`${dataDir}.copying-${process.pid}`)).toBe(false);
  });

  it('never replaces a database that is already there', async () => {
    const dataDir = join(scratch, 'first', 'pgdata');
    const database = await openDatabase({ driver: 'pglite', dataDir });
    await database.db.execute(sql`create table kept (id int)`);
    await database.close();
    expect(await copyPgdataTemplate(dataDir, template)).toBe(false);
    const reopened = await openDatabase({ driver: 'pglite', dataDir });
    await expect(reopened.db.execute(sql`select * from kept`)).resolves.toBeDefined();
    await reopened.close();
  });

  it('leaves a directory holding anything else alone', async () => {
    const dataDir = join(scratch, 'other');
    await mkdir(dataDir);
    await writeFile(join(dataDir, 'notes.txt'), 'mine');
    expect(await copyPgdataTemplate(dataDir, template)).toBe(false);
    expect(await readFile(join(dataDir, 'notes.txt'), 'utf8')).toBe('mine');
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(false);
  });

  it('answers false without a template, so the start runs initdb', async () => {
    const dataDir = join(scratch, 'none');
    expect(await copyPgdataTemplate(dataDir, join(scratch, 'missing'))).toBe(false);
    expect(existsSync(dataDir)).toBe(false);
  });
});
