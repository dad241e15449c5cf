/**
 * The product's side of the call and web benchmarks (bench/calls.ts, bench/calls-trace.ts,
 * bench/web-sites.ts): the real server serving the built web app.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const repoRoot = resolve(import.meta.dirname, '..');

/**
 * The real server (NODE_ENV=test, so the developer mailbox confirms sign-ups, unless `env`
 * says otherwise) serving the built web app, on a fresh PGlite directory; stopped at the end.
 */
export async function startServer(port: number, env: NodeJS.ProcessEnv = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'upnext-bench-calls-'));
  const child = spawn(process.execPath, [join(repoRoot, 'apps/server/src/server.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      SMTP_MAX_FREQUENCY: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const ready = /UpNext is ready at (\S+)/.exec(line);
      if (ready?.[1]) resolveUrl(ready[1]);
    });
  });
  return {
    url,
    stop: async () => {
      const gone = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await gone;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
