/**
 * Makes what PGlite's start uses from the build (pgdata-template.ts), each unless the current one
 * is there, and removes older ones: PGlite's WASM reshaped, and the migrated data directory a
 * first start copies. Run by `npm run build`.
 *
 *   node apps/server/src/db/build-pgdata-template.ts
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { sql } from 'drizzle-orm';
import { distDir, reshapedPgliteWasm, reshapedWasmPath, templateDir } from './pgdata-template.ts';

/** Removes what an older build made under `prefix`, but `keep`. */
async function removeOlder(prefix: string, keep: string): Promise<void> {
  for (const old of await readdir(distDir)) {
    const path = join(distDir, old);
    if (old.startsWith(prefix) && path !== keep) await rm(path, { recursive: true, force: true });
  }
}

const started = performance.now();
await mkdir(distDir, { recursive: true });
const wasm = reshapedWasmPath();
if (!existsSync(wasm)) {
  const writing = `${wasm}.writing-${process.pid}`; // not used until renamed
  await writeFile(writing, reshapedPgliteWasm());
  await removeOlder('pglite-', writing);
  await rename(writing, wasm);
  console.log(`Made ${basename(wasm)} (${Math.round(performance.now() - started)} ms)`);
}

const template = templateDir();
if (!existsSync(template)) {
  // Loaded only here: with the template in place (every `npm start`) this exits at once.
  const { openDatabase } = await import('./client.ts');
  const building = `${template}.building-${process.pid}`; // not a template until renamed
  const database = await openDatabase({ driver: 'pglite', dataDir: building });
  try {
    await database.migrate();
    // The server uses the `postgres` database only, and initdb's template databases are half
    // the directory's files: a first start creates ~570 files instead of ~1,170, which on
    // some disks is most of its copy time (creating a file costs the kernel up to a
    // millisecond there).
    await database.db.execute(
      sql`update pg_database set datistemplate = false where datname in ('template0', 'template1')`,
    );
    await database.db.execute(sql`drop database template0`);
    await database.db.execute(sql`drop database template1`);
  } finally {
    await database.close();
  }
  await removeOlder('pgdata-', building);
  await rename(building, template);
  console.log(`Made ${template} (${Math.round(performance.now() - started)} ms)`);
}
