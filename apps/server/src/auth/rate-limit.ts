import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { errors } from './errors.ts';

/**
 * Fixed-window counters per (bucket, client IP), in this instance's memory. The IP comes from
 * Fastify's `request.ip`, which honours only the proxies TRUST_PROXY names.
 */
export function createIpLimiter(clock: Clock, windowMs = 5 * 60_000) {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    /** Throws 429 over_request_rate_limit once `limit` requests were made in the window. */
    hit(bucket: string, ip: string, limit: number): void {
      if (limit <= 0) return;
      const now = clock().getTime();
      if (windows.size > 50_000) {
        for (const [key, value] of windows) {
          if (now - value.start >= windowMs) windows.delete(key);
        }
      }
      const key = `${bucket}|${ip}`;
      const current = windows.get(key);
      if (!current || now - current.start >= windowMs) {
        windows.set(key, { start: now, count: 1 });
        return;
      }
      current.count++;
      if (current.count > limit) throw errors.rateLimited();
    },
  };
}
export type IpLimiter = ReturnType<typeof createIpLimiter>;

/** The instance-wide hourly email quota (stops mail-bombing from many IPs). */
export function createEmailQuota(
  clock: Clock,
  perHour: number,
  exceeded: () => Error = errors.emailQuota,
) {
  let start = 0;
  let count = 0;
  return {
    take(): void {
      if (perHour <= 0) return;
      const now = clock().getTime();
      if (now - start >= 3_600_000) {
        start = now;
        count = 0;
      }
      if (count >= perHour) throw exceeded();
      count++;
    },
  };
}
export type EmailQuota = ReturnType<typeof createEmailQuota>;

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
  const result = await db.execute<{ last_sent_at: string | Date }>(sql`
    insert into auth.send_log (address, last_sent_at) values (${address}, ${now.toISOString()})
    on conflict (address) do update set last_sent_at = excluded.last_sent_at
      where auth.send_log.last_sent_at <= ${threshold.toISOString()}
    returning last_sent_at`);
  const claimed = rowsOf(result).length > 0;
  if (claimed) return;
  const [row] = rowsOf<{ last_sent_at: string | Date }>(
    await db.execute<{ last_sent_at: string | Date }>(
      sql`select last_sent_at from auth.send_log where address = ${address}`,
    ),
  );
  const last = row ? new Date(row.last_sent_at).getTime() : now.getTime();
  const wait = Math.max(1, Math.ceil((last + seconds * 1000 - now.getTime()) / 1000));
  throw tooSoon(wait);
}

/** node-postgres returns `{rows}`, PGlite the same; both through drizzle's `execute`. */
function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
