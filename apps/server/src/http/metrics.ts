import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { countUndelivered } from '../modules/notifications/notifications.repository.ts';
import type { Realtime } from '../realtime/realtime.ts';

/**
 * Prometheus metrics at `/metrics` (prom-client): requests by route, status and latency, the
 * database pool, STOMP connections and subscriptions, the outbox's depth, and the process's
 * own. It exists only with METRICS_TOKEN, and answers only to that bearer token: the figures
 * (routes, load) are for the operator, not the public. A registry per app, so that several
 * apps in one process (tests) do not collide. prom-client (with @opentelemetry/api, ~80
 * modules) is loaded only then.
 */
export async function registerMetrics(
  app: FastifyInstance,
  deps: { config: Config; database: Database; realtime: Realtime },
): Promise<void> {
  const token = deps.config.metricsToken;
  if (!token) return;
  const { collectDefaultMetrics, Gauge, Histogram, Registry } = await import('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status, and how long they took',
    labelNames: ['method', 'route', 'status_code'],
    // From a cached read to a request that waited on the pool.
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, never the URL: ids and query strings stay out, and labels bounded.
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    requests.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  const pool = deps.database.poolStats;
  if (pool) {
    new Gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL pool connections by state (waiting: requests queued for one)',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const stats = pool();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
  }
  new Gauge({
    name: 'stomp_connections',
    help: 'Open STOMP connections at /wss on this instance',
    registers: [registry],
    collect() {
      this.set(deps.realtime.stats().connections);
    },
  });
  new Gauge({
    name: 'stomp_subscriptions',
    help: 'STOMP subscriptions on this instance',
    registers: [registry],
    collect() {
      this.set(deps.realtime.stats().subscriptions);
    },
  });
  new Gauge({
    name: 'outbox_undelivered_messages',
    help: 'Notifications pending or under way (shared by every instance)',
    registers: [registry],
    async collect() {
      this.set(await countUndelivered(deps.database.db));
    },
  });

  const expected = Buffer.from(`Bearer ${token}`);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ error: { code: 'unauthorized', message: 'Send the metrics bearer token.' } });
    }
    return reply.header('content-type', registry.contentType).send(await registry.metrics());
  });
}
