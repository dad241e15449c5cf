import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { authPlugin } from './auth/auth.plugin.ts';
import { createAuthContext } from './auth/context.ts';
import { authErrorHandler } from './auth/errors.ts';
import { type AuthKeys, ephemeralKeys } from './auth/keys.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { apiPlugin } from './http/api.ts';
import { answerClientError, handleError, registerErrorHandler } from './http/error-handler.ts';
import { registerMetrics } from './http/metrics.ts';
import { registerOpenApi } from './http/openapi.ts';
import { requestIdFor } from './http/request-id.ts';
import { registerSecurity } from './http/security.ts';
import { registerSpa } from './http/spa.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import type { EventPublisher } from './lib/events.ts';
import type { Lifecycle } from './lib/lifecycle.ts';
import { loggerOptions } from './lib/logger.ts';
import { createCallRelay } from './modules/meetings/meetings.relay.ts';
import { choosePaymentProvider } from './modules/payments/providers.ts';
import type { WebhookDeliver } from './modules/payments/sandbox.provider.ts';
import type { CallAuthorizer } from './realtime/realtime.policy.ts';
import { registerRealtime } from './realtime/realtime.ts';

export type AppDeps = {
  config: Config;
  database: Database;
  lifecycle: Lifecycle;
  /** The auth service's signing key (serve.ts loads it); tests leave it out (in memory). */
  authKeys?: AuthKeys;
  /** The process logger; tests leave it out and get one built from the config. */
  logger?: FastifyBaseLogger;
  /** One clock for the whole app; tests pass a controllable one. */
  clock?: Clock;
  /** Where committed changes are announced (the realtime module); silent when left out. */
  publisher?: EventPublisher;
  /** The `/app/call` forwarding rule; the meetings relay when left out (tests may swap it). */
  authorizeCall?: CallAuthorizer;
  /** How the sandbox posts its webhooks; by default to this app's own listening address. */
  deliverWebhook?: WebhookDeliver;
};

const SANDBOX_WEBHOOK_PATH = '/api/payment-gateway/webhooks/sandbox';
const AUTH_PREFIX = '/auth/v1';

/**
 * The sandbox's webhooks go to our own endpoint like a real provider's: over HTTP to the
 * listening address (loopback), or, before the app listens (tests), through `inject`.
 */
function deliverToSelf(app: FastifyInstance): WebhookDeliver {
  return async (body, headers) => {
    const address = app.server.listening ? app.server.address() : null;
    if (address && typeof address === 'object') {
      const any = address.address === '0.0.0.0' || address.address === '::';
      const ip = any ? (address.family === 'IPv6' ? '::1' : '127.0.0.1') : address.address;
      const host = address.family === 'IPv6' ? `[${ip}]` : ip;
      const response = await fetch(`http://${host}:${address.port}${SANDBOX_WEBHOOK_PATH}`, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(10_000),
      });
      return response.status;
    }
    const response = await app.inject({ method: 'POST', url: SANDBOX_WEBHOOK_PATH, headers, body });
    return response.statusCode;
  };
}

type CompilersFactory = NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];
/**
 * zod validates and serialises every route: what `setValidatorCompiler` and
 * `setSerializerCompiler` would set, given up front, so that Fastify never loads its default
 * compilers, ajv and fast-json-stringify (~110 modules, ~40 ms of every start). The cast: the
 * option's type is written for ajv's compilers.
 */
const zodCompilers = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as CompilersFactory;

/** Builds the whole HTTP app without listening, so tests can `inject` into it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: loggerOptions(config) }),
    genReqId: requestIdFor,
    trustProxy: config.trustProxy,
    // Close idle keep-alive sockets on shutdown so draining ends when the work does.
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    // Refusals before any route or plugin runs still answer in the API's shape (GoTrue's under
    // /auth/v1): a malformed URL or an over-long path parameter (the router), and what Node's
    // HTTP parser refuses (too large headers: 431).
    // These run before the onRequest hook below, so they name the request id themselves.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
      return request.url.startsWith(`${AUTH_PREFIX}/`)
        ? authErrorHandler(error, request, reply)
        : handleError(error, request, reply);
    },
    clientErrorHandler: answerClientError,
    schemaController: { compilersFactory: zodCompilers },
  }).withTypeProvider<ZodTypeProvider>();
  registerErrorHandler(app);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await registerSecurity(app, config);
  await registerOpenApi(app, config);
  // One key pair for the auth service and the /api token check (tests: in memory).
  if (!deps.authKeys && config.env === 'production') {
    app.log.warn('auth: no signing key given; sessions will not survive a restart');
  }
  const keys = deps.authKeys ?? ephemeralKeys(config.auth.jwtSecret);
  const clock = deps.clock ?? systemClock;
  // The auth service, built before the modules that call it server-side (inviteUserByEmail).
  const auth = await createAuthContext({ config, db: deps.database.db, keys, clock, log: app.log });
  app.addHook('onClose', auth.close);
  app.decorate('authService', { current: auth.ctx });
  // The call relay announces meeting state changes through the publisher the realtime
  // endpoint it belongs to creates: bound late, by the time the first call arrives it exists.
  const publisher: EventPublisher = {
    publish: (destination, body) =>
      (deps.publisher ?? realtime.publisher).publish(destination, body),
  };
  const realtime = await registerRealtime(app, {
    config,
    db: deps.database.db,
    keys,
    clock,
    authorizeCall:
      deps.authorizeCall ?? createCallRelay({ db: deps.database.db, clock, publisher }),
  });
  await registerMetrics(app, { config, database: deps.database, realtime });
  const payments = await choosePaymentProvider(config.payments, {
    db: deps.database.db,
    clock,
    publicUrl: config.publicUrl,
    hmacKey: keys.hmacKey,
    deliver: deps.deliverWebhook ?? deliverToSelf(app),
    onDeliveryFailure: (error) => app.log.error({ err: error }, 'sandbox webhook not delivered'),
  });
  app.decorate('payments', payments);
  await app.register(apiPlugin, {
    payments,
    prefix: '/api',
    config,
    database: deps.database,
    lifecycle: deps.lifecycle,
    clock,
    keys,
    publisher,
    authService: auth.ctx,
  });
  await app.register(authPlugin, { prefix: AUTH_PREFIX, ctx: auth.ctx });
  await registerSpa(app, config.webDistDir);

  await app.ready();
  return app;
}
