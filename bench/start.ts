/**
 * Start-up of the server on the embedded PGlite, beside its floors, interleaved in rounds.
 *
 *   npm run bench:start        builds (the web app and the PGlite data directory template) first
 *   (cd bench && node start.ts)
 *
 * Each round spawns, one after another:
 *   node-bare       `node -e` printing a line: the floor of any Node start
 *   pglite-open     bare PGlite opening an existing data directory, `select 1`: the later floor
 *   pglite-initdb   bare PGlite on an empty directory (initdb in WASM): what a first start paid
 *   server-first    `node apps/server/src/server.ts` with an empty DATA_DIR (as `npm start` runs
 *                   it: NODE_ENV unset, so demo data and demo sign-ins are seeded)
 *   server-later    the same DATA_DIR again after a clean SIGTERM
 * and measures spawn -> the ready line, spawn -> first 200 from GET /api/health (server), CPU
 * seconds used by then, VmHWM (peak RSS) then, and after BENCH_IDLE_SECONDS idle VmRSS and
 * VmHWM again (a peak that comes after the ready line, e.g. V8 optimising PGlite's WASM, is still
 * the start's). Medians over BENCH_ROUNDS rounds (default 5). Markdown on stdout.
 * BENCH_SERVER_ENTRY=apps/server/src/serve.ts starts the server without the compile cache (and
 * without server.ts's resolve hook);
 * BENCH_COLD_COMPILE_CACHE=1 with it, but empty at each server start (NODE_COMPILE_CACHE: a new
 * directory each time), as after a cleared temp directory or in a new container.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { processCpuSeconds, processMemoryKiB } from './proc.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 5);
const repoRoot = resolve(import.meta.dirname, '..');
// serve.ts instead measures a start without the compile cache (server.ts turns it on).
const serverEntry = resolve(
  repoRoot,
  process.env.BENCH_SERVER_ENTRY ?? 'apps/server/src/server.ts',
);
const pgliteOpen = join(import.meta.dirname, 'start-pglite.ts');

type Sample = {
  toReadyMs: number;
  toFirstOkMs?: number;
  cpuAtReadyS: number;
  hwmAtReadyKiB: number;
  idleRssKiB: number;
  idleHwmKiB: number;
};

function getStatus(url: string): Promise<number> {
  return new Promise((done) => {
    const req = request(url, { agent: false, timeout: 2000 }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', () => done(0));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

async function measure(args: string[], env: NodeJS.ProcessEnv, cwd = repoRoot): Promise<Sample> {
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const pid = child.pid;
  if (pid === undefined || !child.stdout) throw new Error(`spawn failed: ${args.join(' ')}`);
  const exited = new Promise((done) => child.once('exit', done));
  try {
    const url = await new Promise<string>((done, fail) => {
      createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
        const ready = /(?:UpNext is ready at (\S+)|^ready$)/.exec(line.trim());
        if (ready) done(ready[1] ?? '');
      });
      child.once('exit', (code) => fail(new Error(`${args.join(' ')} exited with ${code}`)));
    });
    const toReadyMs = performance.now() - t0;
    let toFirstOkMs: number | undefined;
    if (url) {
      while ((await getStatus(`${url}/api/health`)) !== 200) await sleep(2);
      toFirstOkMs = performance.now() - t0;
    }
    const cpuAtReadyS = await processCpuSeconds(pid);
    const { hwmKiB: hwmAtReadyKiB } = await processMemoryKiB(pid);
    await sleep(idleSeconds * 1000);
    const idle = await processMemoryKiB(pid);
    return {
      toReadyMs,
      toFirstOkMs,
      cpuAtReadyS,
      hwmAtReadyKiB,
      idleRssKiB: idle.rssKiB,
      idleHwmKiB: idle.hwmKiB,
    };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

const kinds = [
  'node-bare',
  'pglite-open',
  'pglite-initdb',
  'server-first',
  'server-later',
] as const;
type Kind = (typeof kinds)[number];
const samples = new Map<Kind, Sample[]>(kinds.map((kind) => [kind, []]));

const scratch = await mkdtemp(join(tmpdir(), 'upnext-start-'));
let coldCaches = 0;
const serverEnv = (dataDir: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
  };
  if (process.env.BENCH_COLD_COMPILE_CACHE) {
    env.NODE_COMPILE_CACHE = join(scratch, `compile-cache-${++coldCaches}`);
  }
  for (const name of ['DATABASE_URL', 'PUBLIC_URL', 'NODE_ENV', 'LOG_LEVEL']) delete env[name];
  return env;
};
const uptimeBefore = loadavg();
try {
  // The bare open's directory: made once, outside the measured runs.
  const existing = join(scratch, 'existing');
  await measure([pgliteOpen, existing], process.env);
  for (let round = 1; round <= rounds; round++) {
    const dataDir = join(scratch, `server-${round}`);
    const empty = join(scratch, `initdb-${round}`);
    const runs: Array<[Kind, () => Promise<Sample>]> = [
      [
        'node-bare',
        () => measure(['-e', 'console.log("ready"); setInterval(() => {}, 60_000)'], process.env),
      ],
      ['pglite-open', () => measure([pgliteOpen, existing], process.env)],
      ['pglite-initdb', () => measure([pgliteOpen, empty], process.env)],
      ['server-first', () => measure([serverEntry], serverEnv(dataDir))],
      ['server-later', () => measure([serverEntry], serverEnv(dataDir))],
    ];
    for (const [kind, run] of runs) {
      samples.get(kind)?.push(await run());
      console.error(`[start] round ${round}/${rounds} ${kind} done`);
    }
    await rm(empty, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}

const ms = (value: number | undefined) =>
  value === undefined ? '–' : `${Math.round(value).toLocaleString('en-GB')} ms`;
const mib = (kib: number) => `${Math.round(kib / 1024)} MiB`;
console.log(
  `Start-up${process.env.BENCH_COLD_COMPILE_CACHE ? ' (an empty compile cache at each server start)' : ''}, median of ${rounds} interleaved rounds; load average before ${uptimeBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; idle = ${idleSeconds} s after ready\n`,
);
console.log(
  '| Run | Spawn → ready line | Spawn → first 200 | CPU by then | Peak RSS at ready | Idle RSS | Peak RSS incl. idle | Peak / idle |',
);
console.log('|---|--:|--:|--:|--:|--:|--:|--:|');
for (const kind of kinds) {
  const list = samples.get(kind) ?? [];
  const of = (pick: (s: Sample) => number | undefined) => {
    const values = list.map(pick).filter((v): v is number => v !== undefined);
    return values.length ? median(values) : undefined;
  };
  const idle = of((s) => s.idleRssKiB) ?? 0;
  const peak = of((s) => s.idleHwmKiB) ?? 0;
  console.log(
    `| ${kind} | ${ms(of((s) => s.toReadyMs))} | ${ms(of((s) => s.toFirstOkMs))} | ${ms((of((s) => s.cpuAtReadyS) ?? 0) * 1000)} | ${mib(of((s) => s.hwmAtReadyKiB) ?? 0)} | ${mib(idle)} | ${mib(peak)} | ${(peak / idle).toFixed(2)} |`,
  );
}
console.log('\nAll runs (spawn → ready line, ms):');
for (const kind of kinds) {
  console.log(
    `  ${kind}: ${(samples.get(kind) ?? []).map((s) => Math.round(s.toReadyMs)).join(', ')}`,
  );
}
