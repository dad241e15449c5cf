/**
 * The auth benchmark: password sign-ins/s and refreshes/s against /auth/v1 on loopback.
 *
 *   BENCH_SUITE=auth npm run bench -w @upnext/bench     (or: cd bench && node auth.ts)
 *
 * Options: BENCH_DURATION (s per measured run, default 15), BENCH_CONNECTIONS (default 50),
 * BENCH_WARMUP_SECONDS (default 3), BENCH_DATABASE_URL (a PostgreSQL maintenance database:
 * the server then uses a fresh database created there and dropped afterwards; default PGlite).
 *
 * It spawns the real server (NODE_ENV=production, LOG_LEVEL=warn, MAILER_AUTOCONFIRM=true, auth
 * rate limits off), signs up 50 users, then runs autocannon (in this process, sharing the
 * machine's cores) against
 *   1. POST /auth/v1/token?grant_type=password, the users in turn (an argon2id verify each);
 *   2. POST /auth/v1/token?grant_type=refresh_token, each request presenting the newest refresh
 *      token of a session no other connection holds (a rotation each, as real clients do).
 * For each run: requests/s, latency p50/p99/max, status codes, and the server's CPU time per
 * request (from /proc). One argon2id verify is also timed alone in this process, to show how
 * much of a sign-in is the password hash.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { hash, verify } from '@node-rs/argon2';
import autocannon, { type Options as CannonOptions } from 'autocannon';
import pg from 'pg';
import { processCpuSeconds } from './proc.ts';

const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number`);
  return value;
};
const duration = num('BENCH_DURATION', 15);
const connections = num('BENCH_CONNECTIONS', 50);
const warmup = num('BENCH_WARMUP_SECONDS', 3);
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
const USERS = 50;
const SESSIONS = connections * 2;
const PASSWORD = 'a benchmark password';

const repoRoot = resolve(import.meta.dirname, '..');
const log = (message: string) => console.error(`[auth bench] ${message}`);

async function postJson(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'upnext-auth-bench-'));
  let dbName: string | undefined;
  let serverUrl = '';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    SEED_DEMO_DATA: 'false',
    MAILER_AUTOCONFIRM: 'true',
    RATE_LIMIT_TOKEN: '0',
    RATE_LIMIT_OTP: '0',
    RATE_LIMIT_VERIFY: '0',
    RATE_LIMIT_EMAIL_SENT: '0',
  };
  delete env.DATABASE_URL;
  delete env.PUBLIC_URL;
  if (databaseUrl) {
    dbName = `upnext_auth_bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(databaseUrl);
    url.pathname = `/${dbName}`;
    env.DATABASE_URL = url.toString();
  }
  const child = spawn(process.execPath, [join(repoRoot, 'apps/server/src/server.ts')], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const ready = new Promise<string>((resolveUrl, reject) => {
    const take = (line: string) => {
      const match = /UpNext is ready at (\S+)/.exec(line);
      if (match?.[1]) resolveUrl(match[1]);
      else if (line.trim()) output.push(line.slice(0, 300));
    };
    if (!child.stdout || !child.stderr) throw new Error('spawn failed');
    createInterface({ input: child.stdout }).on('line', take);
    createInterface({ input: child.stderr }).on('line', take);
    child.once('exit', (code) =>
      reject(new Error(`server exited (${code}):\n${output.join('\n')}`)),
    );
  });
  try {
    serverUrl = await Promise.race([
      ready,
      sleep(120_000).then(() => {
        throw new Error('server not ready in 120 s');
      }),
    ]);
    const auth = `${serverUrl}/auth/v1`;
    const pid = child.pid as number;
    log(`server ready at ${serverUrl} (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`);

    const emails = Array.from({ length: USERS }, (_, i) => `bench.${i}@example.com`);
    for (let i = 0; i < emails.length; i += 5) {
      await Promise.all(
        emails.slice(i, i + 5).map(async (email) => {
          const answer = await postJson(`${auth}/signup`, { email, password: PASSWORD });
          if (answer.status !== 200) throw new Error(`signup ${answer.status}`);
        }),
      );
    }
    log(`${USERS} users signed up`);

    // One argon2id verify alone, in this process (the server's parameters).
    const stored = await hash(PASSWORD, {
      algorithm: 2,
      memoryCost: 19_456,
      timeCost: 2,
      parallelism: 1,
    });
    const t0 = performance.now();
    const verifies = 20;
    for (let i = 0; i < verifies; i++) await verify(stored, PASSWORD);
    const verifyMs = (performance.now() - t0) / verifies;
    log(`argon2id verify alone: ${verifyMs.toFixed(1)} ms`);

    async function measure(
      title: string,
      setup: () => CannonOptions,
    ): Promise<Record<string, unknown>> {
      if (warmup > 0) await autocannon({ ...setup(), duration: warmup });
      const cpuBefore = await processCpuSeconds(pid);
      const result = await autocannon({ ...setup(), duration });
      const cpu = (await processCpuSeconds(pid)) - cpuBefore;
      const row = {
        title,
        requestsPerSecond: Math.round(result.requests.mean),
        requests: result.requests.total,
        latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
        status2xx: result['2xx'],
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        serverCpuMsPerRequest: result.requests.total ? (cpu * 1000) / result.requests.total : 0,
        serverCpuCores: cpu / result.duration,
      };
      log(JSON.stringify(row));
      return row;
    }

    let turn = 0;
    const signIns = await measure('password sign-in', () => ({
      url: `${auth}/token?grant_type=password`,
      connections,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({ email: emails[turn++ % USERS], password: PASSWORD }),
          }),
        },
      ],
    }));

    // Sessions for the refresh run: each request takes a token no one else holds and puts the
    // rotated one back, so every refresh is a real rotation of the newest token.
    const pool: string[] = [];
    for (let i = 0; i < SESSIONS; i += 5) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(5, SESSIONS - i) }, (_, k) =>
          postJson(`${auth}/token?grant_type=password`, {
            email: emails[(i + k) % USERS],
            password: PASSWORD,
          }),
        ),
      );
      for (const answer of batch)
        pool.push((answer.json as { refresh_token: string }).refresh_token);
    }
    let lost = 0;
    const refreshes = await measure('refresh (rotation)', () => ({
      url: `${auth}/token?grant_type=refresh_token`,
      connections,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request, context) => {
            const token = pool.shift();
            if (!token) throw new Error('refresh token pool ran dry');
            (context as { token?: string }).token = token;
            return { ...request, body: JSON.stringify({ refresh_token: token }) };
          },
          onResponse: (status, body, context) => {
            if (status === 200) {
              pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
            } else {
              lost++;
              const token = (context as { token?: string }).token;
              if (token && status !== 400) pool.push(token);
            }
          },
        },
      ],
    }));
    const machine = {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      loadavg: loadavg().map((value) => value.toFixed(2)),
    };
    const report = {
      date: new Date().toISOString(),
      database: databaseUrl ? 'PostgreSQL' : 'PGlite',
      connections,
      duration,
      machine,
      argon2idVerifyMs: Number(verifyMs.toFixed(1)),
      signIns,
      refreshes,
      refreshTokensLost: lost,
    };
    console.log(JSON.stringify(report, null, 2));
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => {
      if (child.exitCode !== null) done(undefined);
      else child.once('exit', done);
    });
    await rm(dataDir, { recursive: true, force: true });
    if (databaseUrl && dbName) {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
  }
}

await main();
