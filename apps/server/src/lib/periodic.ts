import type { FastifyBaseLogger } from 'fastify';

/**
 * Work every instance repeats on a timer (the notification outbox, the missed-call sweep): a
 * pass never overlaps the one before, a failed pass is logged and the next one tries again,
 * and `stop()` waits for a pass under way. The timer does not keep the process alive.
 * `wake()` runs a pass now, or right after the one under way (which may have started before
 * whatever woke it).
 */
export function createPeriodicTask(
  pass: () => Promise<unknown>,
  log: FastifyBaseLogger,
  what: string,
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  let rerun = false;
  function run() {
    running = pass()
      .then(
        () => undefined,
        (error: unknown) => log.error({ err: error }, `${what} failed`),
      )
      .finally(() => {
        running = undefined;
        if (rerun && !stopped) {
          rerun = false;
          run();
        }
      });
  }
  return {
    start(intervalMs: number) {
      stopped = false;
      timer = setInterval(() => {
        if (running === undefined) run();
      }, intervalMs);
      timer.unref();
    },
    wake() {
      if (stopped) return;
      if (running === undefined) run();
      else rerun = true;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
