/**
 * Realtime fan-out benchmark: time from `publisher.publish()` of a now-serving event to its
 * delivery at the last of N subscribed STOMP clients (and per delivery), for N = 1,000 and
 * 5,000 (BENCH_FANOUT_CLIENTS to change), over loopback.
 *
 *   node bench/realtime-fanout.ts            (from the repository root)
 *
 * The app is built in this process (the real buildApp: Fastify, the /wss STOMP endpoint, the
 * publisher services use) on an in-memory PGlite with one public session; the clients live in
 * a child process (realtime-clients.ts), so the server's event loop is not shared with them.
 * Each size: BENCH_FANOUT_ROUNDS publishes (default 30), one at a time, each after the
 * previous one reached every client, after 3 discarded warm-up rounds.
 */
import { fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../apps/server/src/app.ts';
import { ephemeralKeys } from '../apps/server/src/auth/keys.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { createLifecycle } from '../apps/server/src/lib/lifecycle.ts';
import { createSessionFixture } from '../apps/server/src/realtime/testing.ts';

const sizes = (process.env.BENCH_FANOUT_CLIENTS ?? '1000,5000').split(',').map(Number);
const rounds = Number(process.env.BENCH_FANOUT_ROUNDS ?? 30);
const warmup = 3;
const now = () => performance.timeOrigin + performance.now();

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

const database = await openDatabase({ driver: 'pglite' });
await database.migrate();
const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  SEED_DEMO_DATA: 'false',
  // Thousands of clients from one address, silent (heart-beat 0,0) between rounds.
  REALTIME_MAX_CONNECTIONS_PER_IP: '0',
  REALTIME_IDLE_TIMEOUT_MS: '3600000',
});
const lifecycle = createLifecycle();
const app = await buildApp({ config, database, lifecycle, authKeys: ephemeralKeys(undefined) });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('not listening');
const url = `ws://127.0.0.1:${address.port}/wss`;
const { sessionId } = await createSessionFixture(database.db);
const destination = `/topic/session/${sessionId}`;

const results: Array<Record<string, string | number>> = [];
for (const size of sizes) {
  const child = fork(resolve(import.meta.dirname, 'realtime-clients.ts'), [
    url,
    destination,
    String(size),
  ]);
  const pending = new Map<number, (arrivals: number[]) => void>();
  const ready = new Promise<void>((resolveReady, reject) => {
    child.on('message', (message: { kind: string; round?: number; arrivals?: number[] }) => {
      if (message.kind === 'ready') resolveReady();
      if (message.kind === 'round' && message.round !== undefined && message.arrivals) {
        pending.get(message.round)?.(message.arrivals);
      }
    });
    child.on('exit', (code) => reject(new Error(`clients exited with ${code}`)));
  });
  const connectStart = now();
  await ready;
  const connectMs = now() - connectStart;
  const lastDelivery: number[] = [];
  const perDelivery: number[] = [];
  for (let round = 0; round < warmup + rounds; round++) {
    const arrived = new Promise<number[]>((done) => pending.set(round, done));
    const sentAt = now();
    app.realtime.publisher.publish(destination, {
      type: 'session.now_serving',
      sessionId,
      number: round + 1,
      label: `A${String(round + 1).padStart(3, '0')}`,
      serviceArea: 'Counter 2',
      recall: false,
      at: new Date().toISOString(),
      round,
    });
    const arrivals = await arrived;
    if (round >= warmup) {
      lastDelivery.push(Math.max(...arrivals) - sentAt);
      for (const at of arrivals) perDelivery.push(at - sentAt);
    }
    await sleep(50);
  }
  child.send({ kind: 'stop' });
  await new Promise((done) => child.once('exit', done));
  results.push({
    clients: size,
    'connect+subscribe all (s)': (connectMs / 1000).toFixed(1),
    'last delivery p50 (ms)': percentile(lastDelivery, 50).toFixed(1),
    'last delivery p99 (ms)': percentile(lastDelivery, 99).toFixed(1),
    'any delivery p50 (ms)': percentile(perDelivery, 50).toFixed(1),
    'any delivery p99 (ms)': percentile(perDelivery, 99).toFixed(1),
  });
}

await app.close();
await database.close();

const columns = Object.keys(results[0] ?? {});
console.log(
  `\nRealtime fan-out, ${rounds} rounds per size; ${cpus().length} CPUs, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}\n`,
);
console.log(`| ${columns.join(' | ')} |`);
console.log(`|${columns.map(() => '---').join('|')}|`);
for (const row of results) console.log(`| ${columns.map((c) => row[c]).join(' | ')} |`);
