/**
 * Makes the migrated PGlite data directory a first start copies (pgdata-template.ts), unless the
 * one for the current migrations is there, and removes older ones. Run by `npm run build`.
 *
 *   node apps/server/src/db/build-pgdata-template.ts
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
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
