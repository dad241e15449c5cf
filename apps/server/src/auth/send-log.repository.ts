import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** node-postgres returns `{rows}`, PGlite the same; both through drizzle's `execute`. */
function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/**
 * Records a send to `address` at `now` unless its last one is newer than `threshold`, in one
 * statement (concurrent requests cannot both claim). Returns undefined when claimed, else
 * when the last send was.
 */
export async function claimSend(
  db: Db,
  address: string,
  now: Date,
  threshold: Date,
): Promise<Date | undefined> {
  const claimed = rowsOf(
    await db.execute(sql`
      insert into auth.send_log (address, last_sent_at) values (${address}, ${now.toISOString()})
      on conflict (address) do update set last_sent_at = excluded.last_sent_at
        where auth.send_log.last_sent_at <= ${threshold.toISOString()}
      returning last_sent_at`),
  );
  if (claimed.length > 0) return undefined;
  const [row] = rowsOf<{ last_sent_at: string | Date }>(
    await db.execute(sql`select last_sent_at from auth.send_log where address = ${address}`),
  );
  return row ? new Date(row.last_sent_at) : now;
}

export async function deleteSendLogBefore(db: Db, before: Date): Promise<void> {
  await db.execute(sql`delete from auth.send_log where last_sent_at < ${before.toISOString()}`);
}
