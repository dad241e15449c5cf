import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { type Clock, systemClock } from '../lib/clock.ts';
import { adminRoutes } from './admin.routes.ts';
import type { AuthContext, AuthContextRef } from './context.ts';
import { authErrorHandler, errors, sendAuthError } from './errors.ts';
import { identityRoutes } from './identities.routes.ts';
import type { AuthKeys } from './keys.ts';
import { type Mailer, mailerFor } from './mailer.ts';
import { pruneExpired } from './maintenance.ts';
import { metaRoutes } from './meta.routes.ts';
import { mfaRoutes } from './mfa.routes.ts';
import { oauthRoutes } from './oauth/oauth.routes.ts';
import { passkeyRoutes } from './passkeys.routes.ts';
import { countersFor, createHourlyQuota, createRateLimits } from './rate-limit.ts';
import { signupRoutes } from './signup.routes.ts';
import { createSmsSender, type SmsSender } from './sms.ts';
import { tokenRoutes } from './token.routes.ts';
import { userRoutes } from './user.routes.ts';
import { verifyRoutes } from './verify.routes.ts';

export type AuthPluginOptions = {
  config: Config;
  database: Database;
  /** Loaded by serve.ts from JWT_PRIVATE_KEY or DATA_DIR; shared with the /api token check. */
  keys: AuthKeys;
  clock?: Clock;
  mailer?: Mailer;
  /** Receives the context, for server-side callers in other modules (`inviteUserByEmail`). */
  contextRef?: AuthContextRef;
  /** Tests inject a sender (e.g. Twilio pointed at a fake); null switches phone auth off. */
  sms?: SmsSender | null;
};

/**
 * The GoTrue-compatible auth API (CONTRACT.md), mounted at /auth/v1. Encapsulated: its JSON
 * parser, error shape and not-found answer are GoTrue's and do not touch the /api envelope.
 */
export const authPlugin: FastifyPluginAsync<AuthPluginOptions> = async (app, options) => {
  const { config } = options;
  const auth = config.auth;
  const clock = options.clock ?? systemClock;
  const keys = options.keys;
  const mailer = options.mailer ?? mailerFor(auth, options.database.db);
  if (mailer.kind === 'dev-mailbox' && config.env === 'production') {
    app.log.warn('auth: SMTP_URL is not set; emails are kept in the database, not delivered');
  }
  const sms =
    options.sms !== undefined ? options.sms : createSmsSender(config, options.database.db);
  if (!sms && config.env === 'production') {
    app.log.info('auth: SMS_PROVIDER is not set; phone sign-in is disabled');
  }
  const counters = await countersFor(config.redisUrl, clock, app.log);
  if (config.realtime.busUrl && !config.redisUrl) {
    app.log.warn('auth: REDIS_URL is not set; each instance counts its own rate limits');
  }
  app.addHook('onClose', () => counters.close());
  const limits = createRateLimits(counters);
  const ctx: AuthContext = {
    config,
    auth,
    db: options.database.db,
    clock,
    keys,
    mailer,
    sms,
    limits,
    emailQuota: createHourlyQuota(
      limits,
      'email-sent',
      auth.rateLimits.emailSent,
      errors.emailQuota,
    ),
    smsQuota: createHourlyQuota(limits, 'sms-sent', auth.rateLimits.smsSent, errors.smsQuota),
    redirects: { siteUrl: auth.siteUrl, allowList: auth.uriAllowList },
    log: app.log,
    pending: new Set(),
  };

  if (options.contextRef) options.contextRef.current = ctx;

  // auth-js sends `Content-Type: application/json;charset=UTF-8` even with no body (logout).
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    return json(request, text, done);
  });

  // GoTrue's API is documented by CONTRACT.md and auth-js, not in the /api OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.setErrorHandler(authErrorHandler);
  app.setNotFoundHandler((request, reply) => sendAuthError(request, reply, errors.notFound()));
  app.addHook('onSend', async (_request, reply) => {
    // Tokens and users must not sit in any cache.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  // Housekeeping every 10 minutes; a failure is logged and retried next time.
  const prune = setInterval(() => {
    pruneExpired(ctx.db, clock).catch((error: unknown) => {
      app.log.warn({ err: error }, 'auth: pruning expired rows failed');
    });
  }, 10 * 60_000);
  prune.unref();
  app.addHook('onClose', async () => {
    clearInterval(prune);
    await Promise.allSettled([...ctx.pending]);
  });

  signupRoutes(app, ctx);
  tokenRoutes(app, ctx);
  verifyRoutes(app, ctx);
  userRoutes(app, ctx);
  metaRoutes(app, ctx);
  oauthRoutes(app, ctx);
  identityRoutes(app, ctx);
  mfaRoutes(app, ctx);
  passkeyRoutes(app, ctx);
  adminRoutes(app, ctx);
};
