import type { Language } from '@upnext/contract/languages';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { AuthConfig, Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { requestLanguage } from '../http/language.ts';
import type { Clock } from '../lib/clock.ts';
import { errors } from './errors.ts';
import type { AuthKeys } from './keys.ts';
import { type Mailer, mailerFor } from './mailer.ts';
import {
  countersFor,
  createHourlyQuota,
  createRateLimits,
  type HourlyQuota,
  type RateLimits,
} from './rate-limit.ts';
import type { RedirectPolicy } from './redirect.ts';
import { createSmsSender, type SmsSender } from './sms.ts';

/** Everything the auth services need, passed explicitly (never the Fastify request). */
export type AuthContext = {
  config: Config;
  auth: AuthConfig;
  db: Db;
  clock: Clock;
  keys: AuthKeys;
  mailer: Mailer;
  /** Twilio or the developer mailbox; null in production without a provider (phone auth off). */
  sms: SmsSender | null;
  /** Per-IP, per-account and per-address limits, shared by instances when REDIS_URL is set. */
  limits: RateLimits;
  /** The hourly email and SMS quotas of all instances (RATE_LIMIT_EMAIL_SENT, _SMS_SENT). */
  emailQuota: HourlyQuota;
  smsQuota: HourlyQuota;
  redirects: RedirectPolicy;
  log: FastifyBaseLogger;
  /** Work done after its answer (afterAnswer), awaited when the server closes. */
  pending: Set<Promise<void>>;
};

/**
 * The auth service's context, built once at start (app.ts) from the configuration: its mailer
 * (SMTP or the developer mailbox), SMS sender, and rate-limit counters (Redis when configured,
 * shared by instances). `close` releases the counters' connection.
 */
export async function createAuthContext(deps: {
  config: Config;
  db: Db;
  keys: AuthKeys;
  clock: Clock;
  log: FastifyBaseLogger;
}): Promise<{ ctx: AuthContext; close: () => Promise<void> }> {
  const { config, db, clock, log } = deps;
  const auth = config.auth;
  const mailer = mailerFor(auth, db);
  if (mailer.kind === 'dev-mailbox' && config.env === 'production') {
    log.warn('auth: SMTP_URL is not set; emails are kept in the database, not delivered');
  }
  const sms = createSmsSender(config, db);
  if (!sms && config.env === 'production') {
    log.info('auth: SMS_PROVIDER is not set; phone sign-in is disabled');
  }
  const counters = await countersFor(config.redisUrl, clock, log);
  if (config.realtime.busUrl && !config.redisUrl) {
    log.warn('auth: REDIS_URL is not set; each instance counts its own rate limits');
  }
  const limits = createRateLimits(counters);
  const ctx: AuthContext = {
    config,
    auth,
    db,
    clock,
    keys: deps.keys,
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
    log,
    pending: new Set(),
  };
  return { ctx, close: () => counters.close() };
}

/**
 * The auth service as other modules call it server-side (e.g. inviting staff with
 * `inviteUserByEmail`): built once at start by app.ts, which decorates the root instance
 * with it and hands the same context to the auth plugin.
 */
type AuthService = { readonly current: AuthContext };

declare module 'fastify' {
  interface FastifyInstance {
    authService: AuthService;
  }
}

export type RequestInfo = {
  ip: string;
  userAgent: string | null;
  requestId: string;
  /** The language of the page that asked: its emails and SMS are written in it. */
  language: Language;
};

export function requestInfo(request: FastifyRequest): RequestInfo {
  const agent = request.headers['user-agent'];
  return {
    ip: request.ip,
    userAgent: typeof agent === 'string' ? agent.slice(0, 512) : null,
    requestId: request.id,
    language: requestLanguage(request),
  };
}

/**
 * Runs `work` after the answer is sent, so that nothing that depends on whether an account
 * exists (a lookup, a token, an SMTP round trip, or a failure of one) shows in a response's
 * time or status. Tracked: the server's close and the developer mailbox wait for it.
 */
export function afterAnswer(
  ctx: Pick<AuthContext, 'pending' | 'log'>,
  what: string,
  work: () => Promise<void>,
): void {
  const task = new Promise<void>((resolve) => setImmediate(resolve))
    .then(work)
    .catch((error: unknown) => {
      ctx.log.error({ err: error }, `auth: ${what} failed`);
    })
    .finally(() => {
      ctx.pending.delete(task);
    });
  ctx.pending.add(task);
}
