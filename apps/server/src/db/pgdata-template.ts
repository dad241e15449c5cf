/**
 * What the build (`npm run build`, which `npm start`'s prepare step runs when it is missing)
 * makes for PGlite's start: its WASM reshaped (reshapedPgliteWasm, below), and a data
 * directory with initdb and every migration applied. A first start copies it
 * instead of running initdb in WASM, which takes seconds and runs a second PGlite instance
 * beside the first (the memory peak of a first start). Its name carries a hash of PGlite's
 * version, of the migrations and of the script that makes it, so a template made otherwise is
 * never used; without a matching template a first start runs initdb as before.
 * `build-pgdata-template.ts` makes it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { Worker } from 'node:worker_threads';
import { boundBranchFanIn } from './wasm-fan-in.ts';

export const distDir = join(import.meta.dirname, '..', '..', 'dist');
const migrationsFolder = join(import.meta.dirname, 'migrations');

// createRequire: vitest's module runner has no import.meta.resolve.
const require = createRequire(import.meta.url);
const pgliteRoot = join(dirname(require.resolve('@electric-sql/pglite')), '..');
/** PGlite's WASM as the package ships it. */
export const pgliteWasmPath = require.resolve('@electric-sql/pglite/pglite.wasm');

/** A hash of PGlite's version and of the files given: what a build's file was made from. */
function buildKey(files: string[]): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(pgliteRoot, 'package.json')));
  for (const file of files) {
    hash.update(relative(import.meta.dirname, file)); // not where the checkout is
    hash.update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

export function templateDir(): string {
  const migrations = readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql'));
  const key = buildKey([
    // How it is made, too: a template made by an older build script is not used either.
    join(import.meta.dirname, 'build-pgdata-template.ts'),
    join(migrationsFolder, 'meta', '_journal.json'),
    ...migrations.sort().map((name) => join(migrationsFolder, name)),
  ]);
  return join(distDir, `pgdata-${key}`);
}

const wasmReshaper = join(import.meta.dirname, 'wasm-fan-in.ts');

/** Where the build writes PGlite's WASM reshaped (wasm-fan-in.ts). */
export function reshapedWasmPath(): string {
  return join(distDir, `pglite-${buildKey([wasmReshaper])}.wasm`);
}

/**
 * PGlite's WASM with its SQL parser reshaped, so that V8 optimises it in ~20 MB rather than
 * ~600 MB: the build's copy, or reshaped here (~0.1 s of this thread) when there is none.
 */
export function reshapedPgliteWasm(): Uint8Array {
  const built = reshapedWasmPath();
  return existsSync(built) ? readFileSync(built) : boundBranchFanIn(readFileSync(pgliteWasmPath));
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
