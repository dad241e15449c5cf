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
import { WebSocketServer } from 'ws';
import { buildApp } from '../apps/server/src/app.ts';
import { ephemeralKeys } from '../apps/server/src/auth/keys.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { createLifecycle } from '../apps/server/src/lib/lifecycle.ts';
import {
  messageFrame,
  prepareMessage,
  subscriptionHead,
} from '../apps/server/src/realtime/stomp-frame.ts';
import { createSessionFixture } from '../apps/server/src/realtime/testing.ts';

const sizes = (process.env.BENCH_FANOUT_CLIENTS ?? '1000,5000').split(',').map(Number);
const rounds = Number(process.env.BENCH_FANOUT_ROUNDS ?? 30);
const warmup = 3;
/** Publishes per round, back to back: the rate a burst (a busy morning) is delivered at. */
const burst = Number(process.env.BENCH_FANOUT_BURST ?? 10);
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

/** Clients in a child process: STOMP subscribers of `destination`, or bare `ws` clients. */
async function startClients(target: string, size: number, mode: 'stomp' | 'bare') {
  const child = fork(resolve(import.meta.dirname, 'realtime-clients.ts'), [
    target,
    destination,
    String(size),
    mode,
    String(burst),
  ]);
  const pending = new Map<number, (arrivals: number[]) => void>();
  const startedAt = now();
  await new Promise<void>((resolveReady, reject) => {
    child.on('message', (message: { kind: string; round?: number; arrivals?: number[] }) => {
      if (message.kind === 'ready') resolveReady();
      if (message.kind === 'round' && message.round !== undefined && message.arrivals) {
        pending.get(message.round)?.(message.arrivals);
      }
    });
    child.on('exit', (code) => reject(new Error(`clients exited with ${code}`)));
  });
  return {
    readyMs: now() - startedAt,
    /**
     * Sends round `round` (`burst` messages) and answers each arrival's time, and the CPU time
     * this process spent on it (the server side: less sensitive to other load than wall time).
     */
    round(
      round: number,
      send: () => void,
    ): Promise<{ sentAt: number; arrivals: number[]; cpuMs: number }> {
      const arrived = new Promise<number[]>((done) => pending.set(round, done));
      const cpu = process.cpuUsage();
      const sentAt = now();
      for (let i = 0; i < burst; i++) send();
      return arrived.then((arrivals) => {
        const used = process.cpuUsage(cpu);
        return { sentAt, arrivals, cpuMs: (used.user + used.system) / 1000 };
      });
    },
    async stop() {
      child.send({ kind: 'stop' });
      await new Promise((done) => child.once('exit', done));
    },
  };
}

// The floor: a bare `ws` server in this process broadcasting the very bytes a STOMP subscriber
// gets (the product's own MESSAGE frame), the same buffer to every client.
const bare = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
await new Promise((done) => bare.once('listening', done));
const bareUrl = `ws://127.0.0.1:${(bare.address() as { port: number }).port}`;

const event = (round: number) => ({
  type: 'session.now_serving',
  sessionId,
  number: round + 1,
  label: `A${String(round + 1).padStart(3, '0')}`,
  serviceArea: 'Counter 2',
  recall: false,
  at: new Date().toISOString(),
  round,
});

const results: Array<Record<string, string | number>> = [];
for (const size of sizes) {
  const stomp = await startClients(url, size, 'stomp');
  const plain = await startClients(bareUrl, size, 'bare');
  const last = { stomp: [] as number[], bare: [] as number[] };
  const cpu = { stomp: [] as number[], bare: [] as number[] };
  // Interleaved: each round publishes through the product, then the bare broadcast.
  for (let round = 0; round < warmup + rounds; round++) {
    const viaStomp = await stomp.round(round, () =>
      app.realtime.publisher.publish(destination, event(round)),
    );
    await sleep(20);
    const frame = messageFrame(
      prepareMessage(destination, JSON.stringify(event(round))),
      subscriptionHead('0'),
    );
    const viaBare = await plain.round(round, () => {
      for (const client of bare.clients) client.send(frame);
    });
    if (round >= warmup) {
      last.stomp.push(Math.max(...viaStomp.arrivals) - viaStomp.sentAt);
      last.bare.push(Math.max(...viaBare.arrivals) - viaBare.sentAt);
      cpu.stomp.push(viaStomp.cpuMs);
      cpu.bare.push(viaBare.cpuMs);
    }
    await sleep(20);
  }
  await stomp.stop();
  await plain.stop();
  const throughput = (ms: number) => Math.round((size * burst) / (ms / 1000));
  const median = { stomp: percentile(last.stomp, 50), bare: percentile(last.bare, 50) };
  const p99 = { stomp: percentile(last.stomp, 99), bare: percentile(last.bare, 99) };
  results.push({
    clients: size,
    'connect+subscribe all (s)': (stomp.readyMs / 1000).toFixed(2),
    'bare connect all (s)': (plain.readyMs / 1000).toFixed(2),
    'STOMP msg/s (median)': throughput(median.stomp),
    'bare ws msg/s (median)': throughput(median.bare),
    'throughput ratio': (median.bare / median.stomp).toFixed(2),
    'STOMP last delivery p99 (ms)': p99.stomp.toFixed(1),
    'bare last delivery p99 (ms)': p99.bare.toFixed(1),
    'p99 ratio (bare/STOMP)': (p99.bare / p99.stomp).toFixed(2),
    'server CPU ratio (bare/STOMP)': (percentile(cpu.bare, 50) / percentile(cpu.stomp, 50)).toFixed(
      2,
    ),
  });
}

bare.close();
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
