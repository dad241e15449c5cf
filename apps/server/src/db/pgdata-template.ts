/**
 * A PGlite data directory made once by the build (`npm run build`, which `npm start`'s prepare
 * step runs when it is missing) with initdb and every migration applied. A first start copies it
 * instead of running initdb in WASM, which takes seconds and runs a second PGlite instance
 * beside the first (the memory peak of a first start). Its name carries a hash of PGlite's
 * version and of the migrations, so a template made for other migrations is never used; without
 * a matching template a first start runs initdb as before.
 * `build-pgdata-template.ts` makes it.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, readdir, readFile, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const distDir = join(import.meta.dirname, '..', '..', 'dist');
const migrationsFolder = join(import.meta.dirname, 'migrations');

async function templateKey(): Promise<string> {
  const pgliteEntry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  const hash = createHash('sha256');
  hash.update(await readFile(join(dirname(pgliteEntry), '..', 'package.json')));
  const journal = join('meta', '_journal.json');
  const sqlFiles = (await readdir(migrationsFolder)).filter((name) => name.endsWith('.sql'));
  for (const name of [journal, ...sqlFiles.sort()]) {
    hash.update(name);
    hash.update(await readFile(join(migrationsFolder, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

export async function templateDir(): Promise<string> {
  return join(distDir, `pgdata-${await templateKey()}`);
}

/**
 * Fills `dataDir` from the template when it is missing or empty. Copied beside it and renamed,
 * so a start killed while copying leaves no half database behind. False, touching nothing,
 * without a template or when the directory holds anything (a database, or something else).
 */
export async function copyPgdataTemplate(
  dataDir: string,
  template?: string, // tests pass their own
): Promise<boolean> {
  const entries = await readdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (entries.length > 0) return false;
  const from = template ?? (await templateDir());
  if (!existsSync(from)) return false;
  const copy = `${dataDir}.copying-${process.pid}`;
  await rm(copy, { recursive: true, force: true });
  await cp(from, copy, { recursive: true });
  if (existsSync(dataDir)) await rmdir(dataDir); // empty (rmdir refuses otherwise)
  await rename(copy, dataDir);
  return true;
}
