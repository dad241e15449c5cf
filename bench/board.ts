/**
 * The public board (GET /api/queues/sessions/{id}/board, anonymous) per second beside a bare
 * Fastify route answering a body of the same size, in the same run and process, so the
 * machine's load hits both alike.
 *
 *   npm run bench:board                        PGlite
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:board
 *
 * Options: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 50), BENCH_WAITING
 * (default 10000 tokens waiting in the session). The app is bench/tokens-server.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { adminStatement } from './pg-admin.ts';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const serverUrl = process.env.BENCH_DATABASE_URL;
const waiting = process.env.BENCH_WAITING ?? '10000';

async function rate(url: string) {
  const run = (seconds: number) => autocannon({ url, connections, duration: seconds });
  await run(2); // warm-up, discarded
  const result = await run(duration);
  return {
    perSecond: Math.round(result['2xx'] / duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    refused: result.non2xx + result.errors + result.timeouts,
  };
}

const suffix = Date.now().toString(36);
const appDb = `upnext_bench_board_${suffix}`;
const dataDir = await mkdtemp(join(tmpdir(), 'upnext-bench-board-'));
let env: Record<string, string> = { BENCH_DATA_DIR: dataDir, BENCH_WAITING: waiting };
if (serverUrl) {
  await adminStatement(serverUrl, `create database ${appDb}`);
  const url = new URL(serverUrl);
  url.pathname = `/${appDb}`;
  env = { DATABASE_URL: url.toString(), BENCH_WAITING: waiting };
}
const child = spawn(process.execPath, [join(import.meta.dirname, 'tokens-server.ts')], {
  env: { ...process.env, ...env },
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (text) => {
      if (text.startsWith('{"port"')) resolve(text);
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const { port, sessionId } = JSON.parse(line) as { port: number; sessionId: string };
  const boardUrl = `http://127.0.0.1:${port}/api/queues/sessions/${sessionId}/board`;
  const body = await (await fetch(boardUrl)).text();

  const bare = Fastify();
  bare.get('/board', async (_request, reply) => reply.type('application/json').send(body));
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const address = bare.server.address();
  const barePort = typeof address === 'object' && address ? address.port : 0;

  console.log(
    `\nPublic board, ${connections} connections, ${duration} s, ${waiting} waiting, ${serverUrl ? 'PostgreSQL' : 'PGlite'}, ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}\n`,
  );
  console.log('| Route | Requests/s | p50 ms | p99 ms | Not 2xx or failed |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  const product = await rate(boardUrl);
  console.log(
    `| GET board (the app) | ${product.perSecond} | ${product.p50} | ${product.p99} | ${product.refused} |`,
  );
  const floor = await rate(`http://127.0.0.1:${barePort}/board`);
  console.log(
    `| bare Fastify route, same body | ${floor.perSecond} | ${floor.p50} | ${floor.p99} | ${floor.refused} |`,
  );
  console.log(
    `\nThe board reaches ${((product.perSecond / floor.perSecond) * 100).toFixed(0)} % of the bare route (load ${loadavg()[0]?.toFixed(1)}).`,
  );
  await bare.close();
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
  if (serverUrl) await adminStatement(serverUrl, `drop database if exists ${appDb} with (force)`);
}
