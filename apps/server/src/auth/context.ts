import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { AuthConfig, Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import type { AuthKeys } from './keys.ts';
import type { Mailer } from './mailer.ts';
import type { EmailQuota, IpLimiter } from './rate-limit.ts';
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
  limiter: IpLimiter;
  emailQuota: EmailQuota;
  /** The instance-wide hourly SMS quota (RATE_LIMIT_SMS_SENT). */
  smsQuota: EmailQuota;
  redirects: RedirectPolicy;
  log: FastifyBaseLogger;
  /** SMTP deliveries still under way (awaited when the server closes). */
  deliveries: Set<Promise<void>>;
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

export type RequestInfo = { ip: string; userAgent: string | null; requestId: string };

export function requestInfo(request: FastifyRequest): RequestInfo {
  const agent = request.headers['user-agent'];
  return {
    ip: request.ip,
    userAgent: typeof agent === 'string' ? agent.slice(0, 512) : null,
    requestId: request.id,
  };
}
