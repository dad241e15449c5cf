import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (a tarball) every test database starts from. */
    pgliteTemplate: string;
  }
}

/**
 * Vitest's global set-up: migrates one PGlite database before the test files run and keeps
 * its data directory, so each test file's database loads it (under a second) instead of
 * running initdb in WASM and every migration again (several seconds each).
 */
export default async function setup(project: TestProject) {
  const database = await openDatabase({ driver: 'pglite' });
  await database.migrate();
  const dump = await database.dumpDataDir?.();
  await database.close();
  if (!dump) throw new Error('PGlite did not dump its data directory');
  const path = join(tmpdir(), `upnext-test-pgdata-${process.pid}.tar`);
  await writeFile(path, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', path);
  return () => rm(path, { force: true });
}
