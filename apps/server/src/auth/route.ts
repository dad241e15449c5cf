import type { onRequestAsyncHookHandler } from 'fastify';
import type { AuthContext } from './context.ts';

/** Per-client-IP limits of a route, from AUTH's configuration (RATE_LIMIT_*). */
type LimitName = 'token' | 'otp' | 'verify' | 'oauth' | 'mfa';

function limitOf(ctx: AuthContext, name: LimitName): { limit: number; windowMs?: number } {
  switch (name) {
    case 'token':
    case 'oauth':
      return { limit: ctx.auth.rateLimits.token };
    case 'otp':
      return { limit: ctx.auth.rateLimits.otp };
    case 'verify':
      return { limit: ctx.auth.rateLimits.verify };
    case 'mfa':
      return { limit: ctx.auth.mfa.rateLimit, windowMs: 60_000 };
  }
}

/**
 * A route's rate limit as its first hook: every request counts, whether or not its body
 * is valid, so malformed requests cannot probe past the limit.
 */
export function limitedBy(ctx: AuthContext, name: LimitName): onRequestAsyncHookHandler {
  const { limit, windowMs } = limitOf(ctx, name);
  return async (request) => {
    await ctx.limits.hit(name, request.ip, limit, windowMs);
  };
}
