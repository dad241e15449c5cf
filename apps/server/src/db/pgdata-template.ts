/**
 * A PGlite data directory made once by the build (`npm run build`, which `npm start`'s prepare
 * step runs when it is missing) with initdb and every migration applied. A first start copies it
 * instead of running initdb in WASM, which takes seconds and runs a second PGlite instance
 * beside the first (the memory peak of a first start). Its name carries a hash of PGlite's
 * version, of the migrations and of the script that makes it, so a template made otherwise is
 * never used; without a matching template a first start runs initdb as before.
 * `build-pgdata-template.ts` makes it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export const distDir = join(import.meta.dirname, '..', '..', 'dist');
const migrationsFolder = join(import.meta.dirname, 'migrations');

function templateKey(): string {
  const pgliteEntry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  const hash = createHash('sha256');
  hash.update(readFileSync(join(dirname(pgliteEntry), '..', 'package.json')));
  // How it is made, too: a template made by an older build script is not used either.
  hash.update(readFileSync(join(import.meta.dirname, 'build-pgdata-template.ts')));
  const journal = join('meta', '_journal.json');
  const sqlFiles = readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql'));
  for (const name of [journal, ...sqlFiles.sort()]) {
    hash.update(name);
    hash.update(readFileSync(join(migrationsFolder, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

export function templateDir(): string {
  return join(distDir, `pgdata-${templateKey()}`);
}

/**
 * Fills `dataDir` from the template when it is missing or empty. Copied beside it and renamed,
 * so a start killed while copying leaves no half database behind. False, touching nothing,
 * without a template or when the directory holds anything (a database, or something else).
 *
 * The copy runs on a worker thread, started before this returns: its ~1,000 files keep that
 * thread in the kernel for up to a second on some disks, while this one loads the server's
 * modules (serve.ts).
 */
export function copyPgdataTemplate(
  dataDir: string,
  template?: string, // tests pass their own
): Promise<boolean> {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return Promise.resolve(false);
  template ??= templateDir();
  if (!existsSync(template)) return Promise.resolve(false);
  const worker = new Worker(new URL('./pgdata-copy.ts', import.meta.url), {
    workerData: { dataDir, template },
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) =>
      code === 0 ? resolve(true) : reject(new Error(`template copy exited with ${code}`)),
    );
  });
}
