import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import type { AuthContext } from './context.ts';
import { sha256Hex } from './crypto.ts';
import { AuthError, errors, withRetryAfter } from './errors.ts';
import { claimSend } from './send-log.repository.ts';

/** A fixed window's count after a hit, and how long until the window ends. */
type Window = { count: number; resetInMs: number };

/**
 * Fixed-window counters by key: in this instance's memory, or in Redis when REDIS_URL is set, so
 * that every instance counts against the same limits. Keys hold hashes, never the address or IP.
 */
export type CounterStore = {
  /** Adds one to `key`'s current window (opened with `windowMs` on its first hit). */
  add(key: string, windowMs: number): Promise<Window>;
  /** The current window's count, without adding to it. */
  read(key: string): Promise<Window>;
  close(): Promise<void>;
};

const MEMORY_LIMITS = { sweepAbove: 50_000, most: 200_000 };
const SWEEP_EVERY_MS = 1000;

/**
 * Counters of one instance without Redis (development, a small deployment). Past `sweepAbove`
 * windows the expired ones are swept, at most once a second; at `most`, the oldest goes for
 * each new one: a flood of distinct keys costs neither a scan per request nor unbounded memory.
 */
export function memoryCounters(clock: Clock, limits = MEMORY_LIMITS): CounterStore {
  const windows = new Map<string, { end: number; count: number }>();
  let nextSweep = 0;
  const current = (key: string, now: number) => {
    const window = windows.get(key);
    return window && window.end > now ? window : undefined;
  };
  return {
    async add(key, windowMs) {
      const now = clock().getTime();
      if (windows.size > limits.sweepAbove && now >= nextSweep) {
        nextSweep = now + SWEEP_EVERY_MS;
        for (const [stale, window] of windows) if (window.end <= now) windows.delete(stale);
      }
      let window = current(key, now);
      if (!window) {
        window = { end: now + windowMs, count: 0 };
        // A new window goes last (a Map keeps insertion order), so the first is the oldest.
        windows.delete(key);
        if (windows.size >= limits.most) windows.delete(windows.keys().next().value as string);
        windows.set(key, window);
      }
      window.count++;
      return { count: window.count, resetInMs: window.end - now };
    },
    async read(key) {
      const now = clock().getTime();
      const window = current(key, now);
      return { count: window?.count ?? 0, resetInMs: window ? window.end - now : 0 };
    },
    async close() {
      windows.clear();
    },
  };
}

// One round trip each, atomic: the first hit of a window sets its expiry.
const ADD = `local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;
const READ = `return {tonumber(redis.call('GET', KEYS[1]) or '0'), redis.call('PTTL', KEYS[1])}`;

async function redisCounters(
  url: string,
  log: { warn(details: object, message: string): void },
): Promise<CounterStore> {
  const { createClient } = await import('redis');
  // Fail fast while Redis is away; the limits then let requests through (below).
  const client = createClient({ url, disableOfflineQueue: true });
  client.on('error', () => {});
  let connectTimer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise<never>((_, reject) => {
        connectTimer = setTimeout(
          () => reject(new Error(`rate limits: Redis at ${new URL(url).host} does not answer`)),
          10_000,
        );
      }),
    ]);
  } catch (error) {
    client.destroy();
    throw error;
  } finally {
    clearTimeout(connectTimer);
  }
  let warnedAt = 0;
  // A limit that cannot be counted lets the request through: Redis being away must not lock
  // everyone out of signing in. Said at most once a minute.
  const counted = async (script: string, key: string, args: string[]): Promise<Window> => {
    try {
      const [count, ttl] = (await client.eval(script, {
        keys: [`upnext:limit:${key}`],
        arguments: args,
      })) as [number, number];
      return { count, resetInMs: Math.max(0, ttl) };
    } catch (error) {
      if (Date.now() - warnedAt > 60_000) {
        warnedAt = Date.now();
        log.warn({ err: error }, 'rate limits: Redis does not answer; not counting');
      }
      return { count: 0, resetInMs: 0 };
    }
  };
  return {
    add: (key, windowMs) => counted(ADD, key, [String(windowMs)]),
    read: (key) => counted(READ, key, []),
    async close() {
      await client.close().catch(() => {});
    },
  };
}

/** The store REDIS_URL asks for: Redis shared by every instance, or this instance's memory. */
export function countersFor(
  redisUrl: string | undefined,
  clock: Clock,
  log: { warn(details: object, message: string): void },
): Promise<CounterStore> {
  return redisUrl ? redisCounters(redisUrl, log) : Promise.resolve(memoryCounters(clock));
}

const FIVE_MINUTES = 5 * 60_000;

/**
 * The auth limits over one counter store. Subjects (a client IP, an address with an IP) are
 * hashed into the key. Every refusal is a 429 whose Retry-After says when the window ends.
 */
export function createRateLimits(store: CounterStore) {
  const key = (bucket: string, subject: string) => `${bucket}:${sha256Hex(subject)}`;
  const refuse = (window: Window, exceeded: () => AuthError) =>
    withRetryAfter(exceeded(), Math.max(1, Math.ceil(window.resetInMs / 1000)));
  return {
    /** Counts a request; throws once more than `limit` were made in the window (0 = off). */
    async hit(
      bucket: string,
      subject: string,
      limit: number,
      windowMs = FIVE_MINUTES,
      exceeded: () => AuthError = errors.rateLimited,
    ): Promise<void> {
      if (limit <= 0) return;
      const window = await store.add(key(bucket, subject), windowMs);
      if (window.count > limit) throw refuse(window, exceeded);
    },
    /** Throws while `subject` already has `limit` failures in the window; counts nothing. */
    async assertUnder(bucket: string, subject: string, limit: number): Promise<void> {
      if (limit <= 0) return;
      const window = await store.read(key(bucket, subject));
      if (window.count >= limit) throw refuse(window, errors.rateLimited);
    },
    /** Counts one failure of `subject` (see assertUnder). */
    async fail(bucket: string, subject: string, limit: number, windowMs: number): Promise<void> {
      if (limit <= 0) return;
      await store.add(key(bucket, subject), windowMs);
    },
  };
}
export type RateLimits = ReturnType<typeof createRateLimits>;

/**
 * Failed password sign-ins of one account from one client IP (RATE_LIMIT_SIGNIN_FAILURES per
 * 15 minutes). Keyed by both, so guessing one account's password stops early, while neither a
 * stranger elsewhere can lock the owner out nor one guesser everyone behind the same address.
 */
export function signInFailures(ctx: LimitsContext, account: string, ip: string) {
  return failureLimit(ctx.limits, 'signin-failures', `${account}|${ip}`, {
    limit: ctx.auth.rateLimits.signInFailures,
    windowMs: 15 * 60_000,
  });
}

/**
 * Verifies a code under the limit of wrong codes typed for one address from one client IP
 * (RATE_LIMIT_WRONG_CODES per code lifetime). Wrong codes never delete the code itself, so a
 * stranger who knows the address cannot burn the code its owner was sent; guessing is bounded
 * per address and IP, and by the per-IP /verify limit.
 */
export async function underWrongCodeLimit<T>(
  ctx: LimitsContext,
  address: string,
  ip: string,
  verify: () => Promise<T>,
): Promise<T> {
  const wrong = failureLimit(ctx.limits, 'wrong-codes', `${address}|${ip}`, {
    limit: ctx.auth.rateLimits.wrongCodes,
    windowMs: Math.max(ctx.auth.mailerOtpExp, ctx.auth.sms.otpExp) * 1000,
  });
  await wrong.assertUnder();
  try {
    return await verify();
  } catch (error) {
    if (error instanceof AuthError && error.code === 'otp_expired') await wrong.count();
    throw error;
  }
}

type LimitsContext = Pick<AuthContext, 'limits' | 'auth'>;

function failureLimit(
  limits: RateLimits,
  bucket: string,
  subject: string,
  { limit, windowMs }: { limit: number; windowMs: number },
) {
  return {
    assertUnder: () => limits.assertUnder(bucket, subject, limit),
    count: () => limits.fail(bucket, subject, limit, windowMs),
  };
}

/** A quota for all instances per hour (emails, SMS): stops mail-bombing from many IPs. */
export function createHourlyQuota(
  limits: RateLimits,
  bucket: string,
  perHour: number,
  exceeded: () => AuthError,
) {
  return {
    take: () => limits.hit(bucket, 'all', perHour, 3_600_000, exceeded),
  };
}
export type HourlyQuota = ReturnType<typeof createHourlyQuota>;

/**
 * Claims the right to send to `address` now: one message per `seconds` per address, whether
 * or not an account exists for it, atomically across instances (one upsert).
 * Throws 429 over_email_send_rate_limit naming how long to wait.
 */
export async function claimSendSlot(
  db: Db,
  clock: Clock,
  address: string,
  seconds: number,
  tooSoon: (seconds: number) => Error = errors.emailFrequency,
): Promise<void> {
  if (seconds <= 0) return;
  const now = clock();
  const threshold = new Date(now.getTime() - seconds * 1000);
  const lastSent = await claimSend(db, address, now, threshold);
  if (!lastSent) return;
  const last = lastSent.getTime();
  const wait = Math.max(1, Math.ceil((last + seconds * 1000 - now.getTime()) / 1000));
  throw tooSoon(wait);
}
