import type { FastifyBaseLogger } from 'fastify';
import { type MeetingStateDeps, sweepMissedCalls } from './meetings.service.ts';

/** How often each instance looks for calls nobody answered (a missed call shows within this). */
const SWEEP_INTERVAL_MS = 2000;

/**
 * Marks unanswered calls missed. Every instance runs one; rows are claimed with SKIP LOCKED,
 * so two instances never mark (and announce) the same call twice.
 */
export function createMissedCallSweeper(deps: MeetingStateDeps & { log: FastifyBaseLogger }) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let busy = false;
  return {
    start(intervalMs = SWEEP_INTERVAL_MS) {
      timer = setInterval(() => {
        if (busy) return;
        busy = true;
        running = sweepMissedCalls(deps).then(
          () => {
            busy = false;
          },
          (error: unknown) => {
            busy = false;
            deps.log.error({ err: error }, 'missed-call sweep failed');
          },
        );
      }, intervalMs);
      timer.unref();
    },
    /** Stops the timer and waits for a sweep under way. */
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
