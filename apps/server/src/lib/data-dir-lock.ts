import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The embedded database lives in files that one process may open at a time; a second
 * server on the same DATA_DIR would corrupt it. A pid file turns that into a clear error.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockFile = join(dataDir, 'server.pid');
  try {
    await writeFile(lockFile, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number((await readFile(lockFile, 'utf8').catch(() => '')).trim());
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new Error(
        `DATA_DIR ${dataDir} is in use by another UpNext server (pid ${holder}). ` +
          'Stop it, or start this one with another DATA_DIR.',
      );
    }
    await writeFile(lockFile, String(process.pid)); // left behind by a crash: take it over
  }
  return () => rm(lockFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
