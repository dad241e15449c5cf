/**
 * Token issues per second and their latency, on PGlite and on PostgreSQL, beside what
 * pgbench reaches on the same PostgreSQL for the equivalent bare transaction (lock the
 * session row, bump its counter, insert the token row).
 *
 *   npm run bench:tokens                       PGlite only
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:tokens
 *
 * Options: BENCH_DURATION (s, default 15), BENCH_CONNECTIONS (default 50), BENCH_WAITING
 * (default 10000: each database is measured with an empty line, then with this many waiting).
 * pgbench's clients are as many as BENCH_CONNECTIONS, fewer when the server has not that many
 * free connections (with the default max_connections of 100 it cannot open 100); a second
 * pgbench run has as many clients as the app runs issues of one session at once.
 *
 * The load is a reception desk issuing walk-in tokens (staff, visitor by name): the same
 * transaction as a visitor's own request without the per-visitor count, so one credential
 * can issue thousands of tokens.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import pg from 'pg';
import { ISSUES_AT_ONCE_PER_SESSION } from '../apps/server/src/modules/tokens/tokens.service.ts';
import { adminStatement } from './pg-admin.ts';
import { machineCpuSeconds, postgresCpuSeconds, processCpuSeconds } from './proc.ts';

const duration = Number(process.env.BENCH_DURATION ?? 15);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const serverUrl = process.env.BENCH_DATABASE_URL;
const waitingLine = Number(process.env.BENCH_WAITING ?? 10_000);

type Row = {
  database: string;
  issuesPerSecond: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, and requests with no answer within autocannon's 10 s. */
  refused: number;
  timeouts: number;
  /** CPU per issue, ms: the app's process (all its threads), PostgreSQL's, the whole machine's. */
  serverCpuMs: number;
  postgresCpuMs: number;
  machineCpuMs: number;
};

function withDatabase(url: string, name: string) {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

function admin(statement: string) {
  if (!serverUrl) throw new Error('BENCH_DATABASE_URL is not set');
  return adminStatement(serverUrl, statement);
}

async function measureApp(label: string, env: Record<string, string>): Promise<Row> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'tokens-server.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    // The server logs warnings (JSON lines) too: wait for the line that carries the port.
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (text) => {
        if (text.startsWith('{"port"')) resolve(text);
      });
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    });
    const { port, sessionId, staffToken } = JSON.parse(line) as {
      port: number;
      sessionId: string;
      staffToken: string;
    };
    const run = async (seconds: number) =>
      autocannon({
        url: `http://127.0.0.1:${port}/api/queues/sessions/tokens`,
        method: 'POST',
        connections,
        duration: seconds,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${staffToken}` },
        body: JSON.stringify({ sessionId, visitorName: 'Walk-in visitor' }),
      });
    await run(3); // warm-up, discarded
    const serverBefore = await processCpuSeconds(child.pid as number);
    const machineBefore = await machineCpuSeconds();
    const postgresBefore = await postgresCpuSeconds();
    const result = await run(duration);
    const serverCpu = (await processCpuSeconds(child.pid as number)) - serverBefore;
    const postgresCpu = (await postgresCpuSeconds()) - postgresBefore;
    const machineCpu = (await machineCpuSeconds()).busy - machineBefore.busy;
    const ok = result['2xx'];
    const perIssueMs = (seconds: number) => (ok ? Math.round((seconds * 10_000) / ok) / 10 : 0);
    return {
      database: label,
      issuesPerSecond: Math.round(ok / duration),
      p50: result.latency.p50,
      p99: result.latency.p99,
      refused: result.non2xx,
      timeouts: result.timeouts,
      serverCpuMs: perIssueMs(serverCpu),
      postgresCpuMs: env.DATABASE_URL ? perIssueMs(postgresCpu) : 0,
      machineCpuMs: perIssueMs(machineCpu),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

/** The same work as one token issue, as bare SQL: the ceiling the app is compared with. */
async function measurePgbench(
  url: string,
  wantedClients: number,
): Promise<{
  tps: number;
  p50: number;
  p99: number;
  clients: number;
  postgresCpuMs: number;
  machineCpuMs: number;
}> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // What the server still accepts: its limit, less the superusers' reserve and what is open
  // now (this connection included, closed before pgbench starts, kept as a margin).
  const free = await client.query<{ free: number }>(`
    select current_setting('max_connections')::int
      - current_setting('superuser_reserved_connections')::int
      - (select count(*) from pg_stat_activity where backend_type = 'client backend')::int
      as free`);
  const clients = Math.max(1, Math.min(wantedClients, Number(free.rows[0]?.free ?? 1)));
  await client.query(`
    create table bench_sessions (id int primary key, last_issued int not null, capacity int not null);
    create table bench_tokens (
      id uuid primary key default gen_random_uuid(), session_id int not null, number int not null,
      display_number text not null, status text not null, user_id uuid,
      joined_at timestamptz not null default now(), unique (session_id, number));
    insert into bench_sessions values (1, 0, 100000000);`);
  await client.end();
  const dir = await mkdtemp(join(tmpdir(), 'upnext-pgbench-'));
  try {
    const script = join(dir, 'issue.sql');
    await writeFile(
      script,
      [
        'BEGIN;',
        'SELECT last_issued, capacity FROM bench_sessions WHERE id = 1 FOR UPDATE;',
        'UPDATE bench_sessions SET last_issued = last_issued + 1 WHERE id = 1 RETURNING last_issued \\gset',
        "INSERT INTO bench_tokens (session_id, number, display_number, status, user_id) VALUES (1, :last_issued, 'A-' || :last_issued, 'waiting', gen_random_uuid());",
        'COMMIT;',
        '',
      ].join('\n'),
    );
    const postgresBefore = await postgresCpuSeconds();
    const machineBefore = await machineCpuSeconds();
    const output = execFileSync(
      'pgbench',
      [
        '-n',
        '-c',
        String(clients),
        '-j',
        '2',
        '-T',
        String(duration),
        '-f',
        script,
        '-l',
        `--log-prefix=${join(dir, 'log')}`,
        url,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const postgresCpu = (await postgresCpuSeconds()) - postgresBefore;
    const machineCpu = (await machineCpuSeconds()).busy - machineBefore.busy;
    const tps = Number(/tps = ([\d.]+)/.exec(output)?.[1] ?? 0);
    const transactions = Number(
      /number of transactions actually processed: (\d+)/.exec(output)?.[1] ?? 0,
    );
    const perTransactionMs = (seconds: number) =>
      transactions ? Math.round((seconds * 10_000) / transactions) / 10 : 0;
    const latencies: number[] = [];
    for (const file of await readdir(dir)) {
      if (!file.startsWith('log')) continue;
      for (const row of (await readFile(join(dir, file), 'utf8')).split('\n')) {
        const micros = Number(row.split(' ')[2]);
        if (Number.isFinite(micros) && row) latencies.push(micros / 1000);
      }
    }
    latencies.sort((a, b) => a - b);
    const at = (q: number) =>
      Math.round((latencies[Math.floor(q * (latencies.length - 1))] ?? 0) * 10) / 10;
    return {
      tps: Math.round(tps),
      p50: at(0.5),
      p99: at(0.99),
      clients,
      postgresCpuMs: perTransactionMs(postgresCpu),
      machineCpuMs: perTransactionMs(machineCpu),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

console.log(
  `\nToken issues (POST /api/queues/sessions/tokens), ${connections} connections, ${duration} s, ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}\n`,
);
console.log(
  '| Database | Line before | Issues/s | p50 ms | p99 ms | Not 2xx | Timed out (10 s) | CPU ms per issue: app / PostgreSQL / machine |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
/** Each row as soon as it is measured: a long run shows its figures while it goes on. */
function print(row: Row, waiting: number) {
  console.log(
    `| ${row.database} | ${waiting} | ${row.issuesPerSecond} | ${row.p50} | ${row.p99} | ${row.refused} | ${row.timeouts} | ${row.serverCpuMs} / ${row.postgresCpuMs} / ${row.machineCpuMs} |`,
  );
}
const lines = [...new Set([0, waitingLine])];

for (const waiting of lines) {
  const dataDir = await mkdtemp(join(tmpdir(), 'upnext-bench-tokens-'));
  try {
    const env = { BENCH_DATA_DIR: dataDir, BENCH_WAITING: String(waiting) };
    print(await measureApp('PGlite (embedded)', env), waiting);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
if (serverUrl) {
  const suffix = Date.now().toString(36);
  const rawDb = `upnext_bench_pgbench_${suffix}`;
  let app: Row | undefined;
  for (const waiting of lines) {
    const appDb = `upnext_bench_tokens_${suffix}_${waiting}`;
    await admin(`create database ${appDb}`);
    try {
      const env = { DATABASE_URL: withDatabase(serverUrl, appDb), BENCH_WAITING: String(waiting) };
      const row = await measureApp('PostgreSQL server', env);
      app ??= row;
      print(row, waiting);
    } finally {
      await admin(`drop database if exists ${appDb} with (force)`);
    }
  }
  // The goal's floor, at the app's concurrency; then as many clients as the app lets wait on one
  // session's lock, which spares PostgreSQL waking dozens of waiters at every commit.
  const rates: string[] = [];
  for (const clients of [connections, ISSUES_AT_ONCE_PER_SESSION]) {
    await admin(`create database ${rawDb}`);
    try {
      const raw = await measurePgbench(withDatabase(serverUrl, rawDb), clients);
      console.log(
        `| pgbench, same transaction in bare SQL (${raw.clients} clients) | 0 | ${raw.tps} | ${raw.p50} | ${raw.p99} | 0 | 0 | - / ${raw.postgresCpuMs} / ${raw.machineCpuMs} |`,
      );
      if (app)
        rates.push(
          `${((app.issuesPerSecond / raw.tps) * 100).toFixed(0)} % of pgbench's rate with ${raw.clients} clients`,
        );
    } finally {
      await admin(`drop database if exists ${rawDb} with (force)`);
    }
  }
  if (app)
    console.log(`\nThe app (empty line) reaches ${rates.join(', and ')}, on the same server.`);
}
