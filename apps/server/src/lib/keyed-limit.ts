/**
 * Runs work for one key at most `limit` at a time in this process; the rest waits its turn,
 * first come first served, without holding anything (a database connection included).
 *
 * Token issues use it per session: all of them lock the session's row, so a burst of issues
 * for one queue took every pooled connection, all but one sitting on that lock while other
 * queues' requests waited for a connection, and at every commit PostgreSQL woke every waiter
 * to compete for the row again. With two at a time, one holds the lock and one
 * waits in the database, ready the moment it is released. The database's lock stays the rule;
 * this only keeps the queue for it in the app, where it is cheap.
 */
export function keyedLimit(limit: number) {
  const keys = new Map<string, { running: number; waiting: (() => void)[] }>();
  return async function withinLimit<T>(key: string, work: () => Promise<T>): Promise<T> {
    const entry = keys.get(key) ?? { running: 0, waiting: [] };
    keys.set(key, entry);
    if (entry.running < limit) entry.running += 1;
    else await new Promise<void>((resolve) => entry.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // A finished run hands its place straight to the first waiter.
      const next = entry.waiting.shift();
      if (next) next();
      else if (--entry.running === 0) keys.delete(key);
    }
  };
}
