import type { FastifyBaseLogger } from 'fastify';

/**
 * Work every instance repeats on a timer (the notification outbox, the missed-call sweep): a
 * pass never overlaps the one before, a failed pass is logged and the next one tries again,
 * and `stop()` waits for a pass under way. The timer does not keep the process alive.
 */
export function createPeriodicTask(
  pass: () => Promise<unknown>,
  log: FastifyBaseLogger,
  what: string,
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  return {
    start(intervalMs: number) {
      timer = setInterval(() => {
        if (running !== undefined) return;
        running = pass()
          .then(
            () => undefined,
            (error: unknown) => log.error({ err: error }, `${what} failed`),
          )
          .finally(() => {
            running = undefined;
          });
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
