/**
 * UpNext server benchmark: start-up time, idle memory, throughput and latency, on loopback.
 *
 *   npm run bench                      builds the web app, then runs this (PGlite only)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench
 *                                      the same, then again on a PostgreSQL server
 *   (cd bench && node run.ts)          this alone, against whatever apps/web/dist holds
 *   BENCH_SUITE=auth npm run bench -w @upnext/bench
 *                                      the auth benchmark instead (bench/auth.ts)
 *
 * Options (environment variables):
 *   BENCH_DURATION       seconds of each measured load run (default 15)
 *   BENCH_CONNECTIONS    concurrent connections of each load run (default 50)
 *   BENCH_DATABASE_URL   URL of a PostgreSQL server (a maintenance database such as
 *                        `postgres`, on which the user may CREATE DATABASE). When set, every
 *                        measurement is repeated with DATABASE_URL pointing at fresh databases
 *                        created on that server for the run and dropped afterwards.
 *   BENCH_FIRST_STARTS   first starts (fresh DATA_DIR or fresh database) (default 3)
 *   BENCH_LATER_STARTS   later starts (same DATA_DIR/database after a clean SIGTERM) (default 5)
 *   BENCH_IDLE_SECONDS   idle time before each memory reading (default 5)
 *   BENCH_WARMUP_SECONDS discarded load before each measured load run (default 3)
 *
 * What it does, per database (PGlite in a temp DATA_DIR; optionally PostgreSQL):
 *   1. spawns `node apps/server/src/server.ts` (this Node, process.execPath) with PORT=0,
 *      HOST=127.0.0.1, LOG_LEVEL=warn, NODE_ENV=production, and times spawn -> the
 *      "UpNext is ready at" line and spawn -> the first 200 from GET /api/ready; first starts
 *      (initdb + migrations + demo seed) and later starts; also the time SIGTERM takes.
 *   2. one extra first and later start with LOG_LEVEL=info, whose log timestamps split the
 *      start into Node boot + module loading, opening the database, and the rest.
 *   3. the server's resident memory (VmRSS from /proc/<pid>/status): idle after a first start,
 *      idle after a later start, idle again after a warm-up of a few hundred requests, and
 *      after the load runs (with the peak, VmHWM).
 *   4. autocannon (in this process, so it shares the machine's cores with the server) against
 *      GET /api/health (includes a database round trip) and GET / (the SPA index).
 *
 * Prints Markdown tables and writes bench/results/<timestamp>.json (git-ignored). Servers,
 * temp directories and temp databases are removed on success, failure and Ctrl-C.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { cpus, freemem, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Result as CannonResult } from 'autocannon';
import autocannon from 'autocannon';
import pg from 'pg';
import { machineCpuSeconds, processCpuSeconds, processMemoryKiB } from './proc.ts';

// ---------------------------------------------------------------------------------------------
// Options

function intFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    console.error(`${name} must be a whole number >= ${min} (got "${raw}")`);
    process.exit(2);
  }
  return value;
}

const options = {
  duration: intFromEnv('BENCH_DURATION', 15, 1),
  connections: intFromEnv('BENCH_CONNECTIONS', 50, 1),
  databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
  firstStarts: intFromEnv('BENCH_FIRST_STARTS', 3, 1),
  laterStarts: intFromEnv('BENCH_LATER_STARTS', 5, 1),
  idleSeconds: intFromEnv('BENCH_IDLE_SECONDS', 5, 0),
  warmupSeconds: intFromEnv('BENCH_WARMUP_SECONDS', 3, 0),
};
const WARMUP_REQUESTS_PER_PATH = 250; // before the second memory reading
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;

const repoRoot = resolve(import.meta.dirname, '..');
const serverEntry = join(repoRoot, 'apps/server/src/server.ts');
const webIndex = join(repoRoot, 'apps/web/dist/index.html');
const resultsDir = join(import.meta.dirname, 'results');

// ---------------------------------------------------------------------------------------------
// Cleanup: everything the run creates is registered here and removed at the end, on failure
// and on Ctrl-C. The `exit` hook is the last resort for servers and directories.

const liveServers = new Set<ChildProcess>();
const tempDirs = new Set<string>();
const tempDatabases = new Set<string>(); // names on options.databaseUrl's server

async function cleanUp(): Promise<void> {
  await Promise.allSettled([...liveServers].map((child) => stopChild(child)));
  for (const dir of tempDirs) {
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    tempDirs.delete(dir);
  }
  if (tempDatabases.size > 0 && options.databaseUrl) {
    const admin = new pg.Client({ connectionString: options.databaseUrl });
    try {
      await admin.connect();
      for (const name of tempDatabases) {
        await admin.query(`drop database if exists ${quoteIdent(name)} with (force)`);
        tempDatabases.delete(name);
      }
    } catch (error) {
      console.error(`Could not drop ${[...tempDatabases].join(', ')}: ${String(error)}`);
    } finally {
      await admin.end().catch(() => {});
    }
  }
}

process.on('exit', () => {
  for (const child of liveServers) child.kill('SIGKILL');
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// Small helpers

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2
    ? (sorted[mid] ?? Number.NaN)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

type Summary = { median: number; min: number; max: number; runs: number[] };

function summarise(values: readonly number[]): Summary {
  return {
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    runs: values.map((v) => Math.round(v)),
  };
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en-GB')} ms`;
const mib = (kib: number | undefined) =>
  kib === undefined ? 'n/a' : `${(kib / 1024).toFixed(0)} MiB`;
const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const range = (s: Summary) =>
  s.runs.length === 1 ? ms(s.median) : `${ms(s.median)} (${ms(s.min)} – ${ms(s.max)})`;

function log(message: string): void {
  console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

type HttpAnswer = { status: number; headers: Record<string, unknown>; body: Buffer };

/** A plain node:http GET (no undici, whose lazy load would show up in the first timing). */
function httpGet(url: string, timeoutMs = 5_000): Promise<HttpAnswer> {
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolvePromise({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

type Memory = Awaited<ReturnType<typeof processMemoryKiB>>;

// ---------------------------------------------------------------------------------------------
// The server under test

type LogLine = { level: number; time?: number; msg?: string; ms?: number; [key: string]: unknown };

type Server = {
  child: ChildProcess;
  pid: number;
  url: string;
  spawnEpochMs: number;
  toReadyLineMs: number;
  toFirstReadyOkMs: number;
  /** Parsed pino lines (JSON on stdout). */
  logLines: LogLine[];
  /** Anything else on stdout or stderr. */
  otherOutput: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

type Target = { label: string; dataDir: string; databaseUrl?: string };

/** Warnings, errors and oddities seen, for the report: where, and what. */
const serverNotes: Array<{ context: string; message: string }> = [];

function noteServerOutput(server: Server, context: string): void {
  for (const line of server.logLines) {
    if (line.level >= 40) {
      serverNotes.push({
        context,
        message: `${line.level >= 50 ? 'ERROR' : 'warn'}: ${line.msg ?? ''}`,
      });
    }
  }
  for (const line of server.otherOutput) serverNotes.push({ context, message: `output: ${line}` });
}

async function startServer(target: Target, logLevel = 'warn'): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: target.dataDir,
    LOG_LEVEL: logLevel,
    NODE_ENV: 'production',
  };
  delete env.DATABASE_URL;
  delete env.PUBLIC_URL;
  if (target.databaseUrl) env.DATABASE_URL = target.databaseUrl;

  const spawnEpochMs = Date.now();
  const t0 = performance.now();
  const child = spawn(process.execPath, [serverEntry], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  liveServers.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once('exit', (code, signal) => {
      liveServers.delete(child);
      done({ code, signal });
    });
  });

  const logLines: LogLine[] = [];
  const otherOutput: string[] = [];
  let onReadyLine: ((url: string) => void) | undefined;
  const readyLine = new Promise<string>((resolveLine) => {
    onReadyLine = resolveLine;
  });

  const take = (line: string) => {
    const ready = /UpNext is ready at (\S+)/.exec(line);
    if (ready?.[1]) {
      onReadyLine?.(ready[1]);
      return;
    }
    if (line.trim() === '') return;
    try {
      logLines.push(JSON.parse(line) as LogLine);
    } catch {
      otherOutput.push(line.slice(0, 500));
    }
  };
  if (!child.stdout || !child.stderr || child.pid === undefined) throw new Error('spawn failed');
  createInterface({ input: child.stdout }).on('line', take);
  createInterface({ input: child.stderr }).on('line', take);

  const failure = Promise.race([
    exited.then(({ code, signal }) => {
      throw new Error(
        `server exited before it was ready (code ${code}, signal ${signal}):\n${[
          ...otherOutput,
          ...logLines.map((l) => JSON.stringify(l)),
        ].join('\n')}`,
      );
    }),
    sleep(START_TIMEOUT_MS, undefined, { ref: false }).then(() => {
      throw new Error(`server not ready after ${START_TIMEOUT_MS} ms`);
    }),
  ]);
  failure.catch(() => {}); // it settles (rejects) when the server stops later: expected
  let settled = false;
  try {
    const url = await Promise.race([readyLine, failure]);
    const toReadyLineMs = performance.now() - t0;
    // The port is only known from the line (PORT=0), so polling starts here.
    const firstOk = (async () => {
      while (!settled) {
        const answer = await httpGet(`${url}/api/ready`).catch(() => undefined);
        if (answer?.status === 200) return performance.now() - t0;
        await sleep(5);
      }
      return Number.NaN;
    })();
    const toFirstReadyOkMs = await Promise.race([firstOk, failure]);
    return {
      child,
      pid: child.pid,
      url,
      spawnEpochMs,
      toReadyLineMs,
      toFirstReadyOkMs,
      logLines,
      otherOutput,
      exited,
    };
  } catch (error) {
    await stopChild(child);
    throw error;
  } finally {
    settled = true;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await gone;
  clearTimeout(timer);
}

/** SIGTERM and wait; returns how long the clean stop took and how the process ended. */
async function stopServer(server: Server): Promise<{ ms: number; clean: boolean; how: string }> {
  const t0 = performance.now();
  await stopChild(server.child);
  const { code, signal } = await server.exited;
  const clean = code === 0;
  return { ms: performance.now() - t0, clean, how: signal ? `signal ${signal}` : `code ${code}` };
}

// ---------------------------------------------------------------------------------------------
// Measurements

type StartRun = { toReadyLineMs: number; toFirstReadyOkMs: number; stopMs: number };

type Breakdown = {
  kind: 'first' | 'later';
  bootAndImportsMs: number; // spawn -> server.ts top-level code running (after all imports)
  openDatabaseMs: number; // -> "database opened" (PGlite: initdb or open; pg: pool)
  migrateSeedListenMs: number; // -> "ready" (migrations, demo seed, buildApp, listen)
  totalMs: number;
};

type LoadRun = {
  path: string;
  connections: number;
  durationSeconds: number;
  requestsPerSecondMean: number;
  requestsTotal: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  throughputMiBps: number;
  /** CPU time over wall time during the run; 100 = one core busy all the time. */
  serverCpuPercent?: number;
  loadGeneratorCpuPercent?: number;
  /** Everything else on the machine (other processes, kernel) in the same window. */
  otherCpuPercent?: number;
  /** Time the hypervisor gave our virtual CPUs to someone else. */
  stealPercent?: number;
  status2xx: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  resets: number;
};

type ModeResult = {
  database: string;
  firstStarts: StartRun[];
  laterStarts: StartRun[];
  firstStart: { toReadyLine: Summary; toFirstReadyOk: Summary; stop: Summary };
  laterStart: { toReadyLine: Summary; toFirstReadyOk: Summary; stop: Summary };
  breakdown: Breakdown[];
  memory: {
    idleAfterFirstStartKiB: number;
    /** VmHWM at that idle reading: the peak of a first start (initdb, migrations, seed). */
    peakDuringFirstStartKiB: number;
    idleAfterLaterStartKiB: number;
    /** VmHWM at that idle reading: the peak of start-up itself. */
    peakBeforeLoadKiB: number;
    idleAfterWarmupKiB: number;
    afterLoadKiB: number;
    peakKiB: number;
  };
  spa: { status: number; contentType: string; bytes: number; isIndex: boolean; note: string };
  load: LoadRun[];
  uncleanStops: string[];
};

function toLoadRun(path: string, result: CannonResult): LoadRun {
  return {
    path,
    connections: result.connections,
    durationSeconds: result.duration,
    requestsPerSecondMean: result.requests.mean,
    requestsTotal: result.requests.total,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.mean,
    },
    throughputMiBps: result.throughput.mean / 1024 / 1024,
    status2xx: result['2xx'],
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]),
    ),
    errors: result.errors,
    timeouts: result.timeouts,
    resets: result.resets,
  };
}

/** Reads the LOG_LEVEL=info start logs into phases. */
function breakdownOf(server: Server, kind: 'first' | 'later'): Breakdown | undefined {
  const opened = server.logLines.find((l) => l.msg === 'database opened');
  const ready = server.logLines.find((l) => l.msg === 'ready');
  if (opened?.time === undefined || ready?.time === undefined || ready.ms === undefined) {
    return undefined;
  }
  const startedAt = ready.time - ready.ms; // server.ts's performance.now() baseline
  return {
    kind,
    bootAndImportsMs: startedAt - server.spawnEpochMs,
    openDatabaseMs: opened.time - startedAt,
    migrateSeedListenMs: ready.time - opened.time,
    totalMs: ready.time - server.spawnEpochMs,
  };
}

let databaseCounter = 0;

/** A fresh place to keep data: a temp DATA_DIR, plus a fresh database for PostgreSQL. */
async function freshTarget(label: string, postgres: boolean): Promise<Target> {
  const dataDir = await mkdtemp(join(tmpdir(), 'upnext-bench-'));
  tempDirs.add(dataDir);
  if (!postgres || !options.databaseUrl) return { label, dataDir };
  databaseCounter += 1;
  const name = `upnext_bench_${process.pid}_${databaseCounter}`;
  const admin = new pg.Client({ connectionString: options.databaseUrl });
  await admin.connect();
  try {
    tempDatabases.add(name);
    await admin.query(`create database ${quoteIdent(name)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(options.databaseUrl);
  url.pathname = `/${name}`;
  return { label, dataDir, databaseUrl: url.toString() };
}

async function runMode(database: 'PGlite' | 'PostgreSQL'): Promise<ModeResult> {
  const postgres = database === 'PostgreSQL';
  const uncleanStops: string[] = [];
  const stop = async (server: Server, context: string) => {
    const result = await stopServer(server);
    noteServerOutput(server, context);
    if (!result.clean) uncleanStops.push(`${context}: ${result.how}`);
    return result;
  };

  // 1. First starts, each on fresh storage. After the last one: idle, then read memory.
  const firstStarts: StartRun[] = [];
  let target: Target | undefined;
  let idleAfterFirstStart: Memory = { rssKiB: 0, hwmKiB: 0 };
  for (let i = 1; i <= options.firstStarts; i += 1) {
    target = await freshTarget(`${database} first ${i}`, postgres);
    const server = await startServer(target);
    log(`${database}: first start ${i}/${options.firstStarts}: ${ms(server.toReadyLineMs)}`);
    if (i === options.firstStarts) {
      await sleep(options.idleSeconds * 1000);
      idleAfterFirstStart = await processMemoryKiB(server.pid);
    }
    const stopped = await stop(server, `${database} first start ${i}`);
    firstStarts.push({
      toReadyLineMs: server.toReadyLineMs,
      toFirstReadyOkMs: server.toFirstReadyOkMs,
      stopMs: stopped.ms,
    });
  }
  if (!target) throw new Error('no first start');

  // 2. Later starts on the last first start's storage; the last one stays up.
  const laterStarts: StartRun[] = [];
  let server: Server | undefined;
  for (let i = 1; i <= options.laterStarts; i += 1) {
    server = await startServer(target);
    log(`${database}: later start ${i}/${options.laterStarts}: ${ms(server.toReadyLineMs)}`);
    if (i === options.laterStarts) break;
    const stopped = await stop(server, `${database} later start ${i}`);
    laterStarts.push({
      toReadyLineMs: server.toReadyLineMs,
      toFirstReadyOkMs: server.toFirstReadyOkMs,
      stopMs: stopped.ms,
    });
  }
  if (!server) throw new Error('no later start');
  const running = server;

  // 3. Memory: idle after start; a warm-up of a few hundred requests; idle again.
  await sleep(options.idleSeconds * 1000);
  const idleAfterLaterStart = await processMemoryKiB(running.pid);
  for (const path of ['/api/health', '/']) {
    await autocannon({
      url: running.url + path,
      connections: 10,
      amount: WARMUP_REQUESTS_PER_PATH,
    });
  }
  await sleep(options.idleSeconds * 1000);
  const idleAfterWarmupKiB = (await processMemoryKiB(running.pid)).rssKiB;

  // 4. What GET / serves: the SPA index only when apps/web/dist was built.
  const index = await httpGet(`${running.url}/`);
  const contentType = String(index.headers['content-type'] ?? '');
  const isIndex =
    index.status === 200 && contentType.startsWith('text/html') && index.body.includes('<script');
  const spa = {
    status: index.status,
    contentType,
    bytes: index.body.length,
    isIndex,
    note: isIndex
      ? 'GET / served the built SPA index.html'
      : `GET / did NOT serve the SPA index (status ${index.status}, ${contentType || 'no type'}): ` +
        'apps/web/dist is missing or not a build; the GET / figures measure the fallback, not the SPA',
  };

  // 5. Load: a discarded warm-up, then the measured run, for each path.
  const load: LoadRun[] = [];
  for (const path of ['/api/health', '/']) {
    if (options.warmupSeconds > 0) {
      await autocannon({
        url: running.url + path,
        connections: options.connections,
        duration: options.warmupSeconds,
      });
    }
    log(`${database}: load GET ${path} for ${options.duration} s at ${options.connections} conns`);
    const serverCpuBefore = await processCpuSeconds(running.pid);
    const benchCpuBefore = process.cpuUsage();
    const machineBefore = await machineCpuSeconds();
    const wallBefore = performance.now();
    const result = await autocannon({
      url: running.url + path,
      connections: options.connections,
      duration: options.duration,
      title: `${database} GET ${path}`,
    });
    const wallSeconds = (performance.now() - wallBefore) / 1000;
    const serverCpu = (await processCpuSeconds(running.pid)) - serverCpuBefore;
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const machineAfter = await machineCpuSeconds();
    const benchCpuSeconds = (benchCpu.user + benchCpu.system) / 1e6;
    const machineBusy = machineAfter.busy - machineBefore.busy;
    load.push({
      ...toLoadRun(path, result),
      serverCpuPercent: (100 * serverCpu) / wallSeconds,
      loadGeneratorCpuPercent: (100 * benchCpuSeconds) / wallSeconds,
      otherCpuPercent: Math.max(
        0,
        (100 * (machineBusy - serverCpu - benchCpuSeconds)) / wallSeconds,
      ),
      stealPercent: (100 * (machineAfter.steal - machineBefore.steal)) / wallSeconds,
    });
    await sleep(1000);
  }
  const afterLoad = await processMemoryKiB(running.pid);
  const lastStop = await stop(running, `${database} later start ${options.laterStarts} (load)`);
  laterStarts.push({
    toReadyLineMs: running.toReadyLineMs,
    toFirstReadyOkMs: running.toFirstReadyOkMs,
    stopMs: lastStop.ms,
  });

  // 6. Where a start's time goes: one first and one later start with LOG_LEVEL=info.
  const breakdown: Breakdown[] = [];
  const fresh = await freshTarget(`${database} breakdown`, postgres);
  for (const kind of ['first', 'later'] as const) {
    const probe = await startServer(fresh, 'info');
    await stop(probe, `${database} ${kind} start (LOG_LEVEL=info)`);
    const phases = breakdownOf(probe, kind);
    if (phases) breakdown.push(phases);
    else {
      serverNotes.push({ context: database, message: 'no "database opened"/"ready" log lines' });
    }
  }

  const startSummary = (runs: StartRun[]) => ({
    toReadyLine: summarise(runs.map((r) => r.toReadyLineMs)),
    toFirstReadyOk: summarise(runs.map((r) => r.toFirstReadyOkMs)),
    stop: summarise(runs.map((r) => r.stopMs)),
  });
  return {
    database,
    firstStarts,
    laterStarts,
    firstStart: startSummary(firstStarts),
    laterStart: startSummary(laterStarts),
    breakdown,
    memory: {
      idleAfterFirstStartKiB: idleAfterFirstStart.rssKiB,
      peakDuringFirstStartKiB: idleAfterFirstStart.hwmKiB,
      idleAfterLaterStartKiB: idleAfterLaterStart.rssKiB,
      peakBeforeLoadKiB: idleAfterLaterStart.hwmKiB,
      idleAfterWarmupKiB,
      afterLoadKiB: afterLoad.rssKiB,
      peakKiB: afterLoad.hwmKiB,
    },
    spa,
    load,
    uncleanStops,
  };
}

// ---------------------------------------------------------------------------------------------
// Report

/** The commit, and the server-side files that differ from it (what is really measured). */
function sourceState(): { commit: string; uncommitted: string[] } {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  try {
    return {
      commit: git('rev-parse', '--short', 'HEAD').trim(),
      uncommitted: git('status', '--porcelain', '--', 'apps/server', 'packages')
        .split('\n')
        .filter(Boolean),
    };
  } catch {
    return { commit: 'unknown (not a git checkout)', uncommitted: [] };
  }
}

function machine() {
  const cpuList = cpus();
  const { commit, uncommitted } = sourceState();
  return {
    node: process.version,
    cpus: cpuList.length,
    cpuModel: cpuList[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    freeMemoryGiB: Math.round(freemem() / 1024 ** 3),
    kernel: release(),
    loadAverage: loadavg(),
    commit,
    uncommittedServerFiles: uncommitted,
  };
}

function percents(l: LoadRun): string {
  const values = [l.serverCpuPercent, l.loadGeneratorCpuPercent, l.otherCpuPercent, l.stealPercent];
  return `${values.map((v) => (v === undefined ? 'n/a' : fixed(v))).join(' / ')} %`;
}

function markdown(
  results: ModeResult[],
  env: ReturnType<typeof machine>,
  webBuilt: boolean,
): string {
  const out: string[] = [];
  out.push(
    `## UpNext benchmark, ${new Date().toISOString()}`,
    '',
    `Node ${env.node}; ${env.cpus} × ${env.cpuModel}; ${env.memoryGiB} GiB; Linux ${env.kernel}; ` +
      `commit ${env.commit}${env.uncommittedServerFiles.length > 0 ? ` plus ${env.uncommittedServerFiles.length} uncommitted changes under apps/server and packages` : ''}. Load from autocannon in the same machine (shares the cores). ` +
      `Load average at start ${env.loadAverage.map((v) => v.toFixed(2)).join(', ')}.`,
    '',
    '### Time from start to ready (median, min – max)',
    '',
    '| Database | Start | Runs | Spawn → "ready at" line | Spawn → first 200 /api/ready | SIGTERM → exit |',
    '|---|---|--:|--:|--:|--:|',
  );
  for (const r of results) {
    for (const [kind, s, n] of [
      ['first (fresh storage)', r.firstStart, r.firstStarts.length],
      ['later (same storage)', r.laterStart, r.laterStarts.length],
    ] as const) {
      out.push(
        `| ${r.database} | ${kind} | ${n} | ${range(s.toReadyLine)} | ${range(s.toFirstReadyOk)} | ${range(s.stop)} |`,
      );
    }
  }
  out.push(
    '',
    '### Where a start goes (one run each, LOG_LEVEL=info)',
    '',
    '| Database | Start | Node boot + imports | Open database | Migrate + seed + app + listen | Total |',
    '|---|---|--:|--:|--:|--:|',
  );
  for (const r of results) {
    for (const b of r.breakdown) {
      out.push(
        `| ${r.database} | ${b.kind} | ${ms(b.bootAndImportsMs)} | ${ms(b.openDatabaseMs)} | ${ms(b.migrateSeedListenMs)} | ${ms(b.totalMs)} |`,
      );
    }
  }
  out.push(
    '',
    `### Resident memory of the server (VmRSS; peaks are VmHWM; idle = ${options.idleSeconds} s without requests)`,
    '',
    '| Database | Peak during first start | Idle after first start | Peak during later start | Idle after later start | Idle after warm-up | After load | Peak incl. load |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
  );
  for (const r of results) {
    const m = r.memory;
    out.push(
      `| ${r.database} | ${mib(m.peakDuringFirstStartKiB)} | ${mib(m.idleAfterFirstStartKiB)} | ${mib(m.peakBeforeLoadKiB)} | ${mib(m.idleAfterLaterStartKiB)} | ${mib(m.idleAfterWarmupKiB)} | ${mib(m.afterLoadKiB)} | ${mib(m.peakKiB)} |`,
    );
  }
  out.push(
    '',
    `### Throughput and latency (${options.connections} connections, ${options.duration} s after ${options.warmupSeconds} s warm-up)`,
    '',
    `CPU is % of one core over the run (${env.cpus} cores = ${env.cpus * 100} %); "other" is the rest of the machine.`,
    '',
    '| Database | Request | req/s (mean) | p50 | p99 | max | 2xx | non-2xx | errors | timeouts | CPU: server / load gen. / other / steal |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  );
  for (const r of results) {
    for (const l of r.load) {
      const what =
        l.path === '/' ? `GET / (${r.spa.isIndex ? 'SPA index' : 'NOT the SPA'})` : `GET ${l.path}`;
      out.push(
        `| ${r.database} | ${what} | ${fixed(l.requestsPerSecondMean)} | ${fixed(l.latencyMs.p50)} ms | ${fixed(l.latencyMs.p99)} ms | ${fixed(l.latencyMs.max)} ms | ${l.status2xx} | ${l.non2xx} | ${l.errors} | ${l.timeouts} | ${percents(l)} |`,
      );
    }
  }
  out.push('');
  if (!webBuilt) {
    out.push('**apps/web/dist/index.html is missing: the web app was not built.**', '');
  }
  for (const r of results) {
    if (!r.spa.isIndex) out.push(`**${r.database}: ${r.spa.note}.**`, '');
    else out.push(`${r.database}: GET / served index.html, ${r.spa.bytes} bytes.`, '');
    for (const stop of r.uncleanStops) out.push(`**Unclean stop: ${stop}.**`, '');
  }
  if (serverNotes.length > 0) {
    out.push('Server log lines at warn or above (and stray output):', '');
    const where = new Map<string, string[]>();
    for (const { context, message } of serverNotes) {
      where.set(message, [...(where.get(message) ?? []), context]);
    }
    for (const [message, contexts] of where) {
      const seen = contexts.length > 3 ? `${contexts.length} times` : contexts.join('; ');
      out.push(`- ${message} (${seen})`);
    }
    out.push('');
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const env = machine();
  const webBuilt = existsSync(webIndex);
  if (!webBuilt) {
    log('apps/web/dist/index.html is missing: GET / will NOT measure the SPA index');
  }
  log(
    `Node ${env.node}, ${env.cpus} CPUs; ${options.firstStarts} first + ${options.laterStarts} later ` +
      `starts; load ${options.duration} s at ${options.connections} connections` +
      (options.databaseUrl ? '; PGlite and PostgreSQL' : '; PGlite only'),
  );
  const modes: Array<'PGlite' | 'PostgreSQL'> = options.databaseUrl
    ? ['PGlite', 'PostgreSQL']
    : ['PGlite'];
  const results: ModeResult[] = [];
  for (const mode of modes) results.push(await runMode(mode));

  const after = sourceState();
  if (
    after.commit !== env.commit ||
    after.uncommitted.join() !== env.uncommittedServerFiles.join()
  ) {
    serverNotes.push({
      context: 'whole run',
      message:
        `the server's sources changed during the run (commit ${env.commit} -> ${after.commit}, ` +
        `${env.uncommittedServerFiles.length} -> ${after.uncommitted.length} uncommitted files); ` +
        'the figures may mix two versions',
    });
  }
  const report = markdown(results, env, webBuilt);
  console.log(report);
  const stamp = new Date()
    .toISOString()
    .replaceAll(':', '-')
    .replace(/\.\d+Z$/, 'Z');
  await mkdir(resultsDir, { recursive: true });
  const file = join(resultsDir, `${stamp}.json`);
  const { databaseUrl, ...shownOptions } = options;
  await writeFile(
    file,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: env,
        options: { ...shownOptions, postgres: databaseUrl !== undefined },
        webBuilt,
        results,
        serverNotes,
      },
      null,
      2,
    )}\n`,
  );
  log(`results written to ${file}`);
}

try {
  // BENCH_SUITE=auth runs the auth benchmark (bench/auth.ts) instead.
  if (process.env.BENCH_SUITE === 'auth') await import('./auth.ts');
  else await main();
} catch (error) {
  process.exitCode = 1;
  console.error(error);
} finally {
  await cleanUp();
}
