/**
 * Makes the migrated PGlite data directory a first start copies (pgdata-template.ts), unless the
 * one for the current migrations is there, and removes older ones. Run by `npm run build`.
 *
 *   node apps/server/src/db/build-pgdata-template.ts
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { distDir, templateDir } from './pgdata-template.ts';

const started = performance.now();
const template = templateDir();
if (!existsSync(template)) {
  // Loaded only here: with the template in place (every `npm start`) this exits at once.
  const { openDatabase } = await import('./client.ts');
  await mkdir(distDir, { recursive: true });
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
  for (const old of await readdir(distDir)) {
    const path = join(distDir, old);
    if (old.startsWith('pgdata-') && path !== building)
      await rm(path, { recursive: true, force: true });
  }
  await rename(building, template);
  console.log(`Made ${template} (${Math.round(performance.now() - started)} ms)`);
}
