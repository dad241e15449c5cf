// Runs before `npm start`, under whatever Node the machine has (Node 20 on a fresh one):
// installs dependencies when they are missing or stale (which also brings Node 24 into
// node_modules/.bin, so `start` itself runs on 24), builds the web app when its
// sources are newer than the last build, and makes the migrated PGlite data directory a first
// start copies when the one for the current migrations is missing (the script knows which). Plain JavaScript on purpose: nothing is installed yet.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const at = (...parts) => join(root, ...parts);

function run(command, args) {
  console.log(`\n> ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce(
    (newest, entry) =>
      entry === 'node_modules' || entry === 'dist'
        ? newest
        : Math.max(newest, newestMtime(join(path, entry))),
    stat.mtimeMs,
  );
}

const installedAt = newestMtime(at('node_modules', '.package-lock.json'));
if (
  !existsSync(at('node_modules', '.bin', 'node')) ||
  newestMtime(at('package-lock.json')) > installedAt
) {
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

const builtAt = newestMtime(at('apps', 'web', 'dist', 'index.html'));
const sourcesAt = Math.max(
  newestMtime(at('apps', 'web')),
  newestMtime(at('packages', 'contract', 'src')),
);
if (sourcesAt > builtAt) run('npm', ['run', 'build']);

run(at('node_modules', '.bin', 'node'), [
  at('apps', 'server', 'src', 'db', 'build-pgdata-template.ts'),
]);
