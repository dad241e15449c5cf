import type { Language } from '@upnext/contract/languages';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { AuthConfig, Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { requestLanguage } from '../http/language.ts';
import type { Clock } from '../lib/clock.ts';
import type { AuthKeys } from './keys.ts';
import type { Mailer } from './mailer.ts';
import type { HourlyQuota, RateLimits } from './rate-limit.ts';
import type { RedirectPolicy } from './redirect.ts';
import type { SmsSender } from './sms.ts';

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
 * Filled by the auth plugin when it starts, for server-side callers in other modules (e.g.
 * inviting staff with `inviteUserByEmail`). app.ts decorates the root instance with it as
 * `authService`.
 */
export type AuthContextRef = { current: AuthContext | undefined };

declare module 'fastify' {
  interface FastifyInstance {
    authService: AuthContextRef;
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
