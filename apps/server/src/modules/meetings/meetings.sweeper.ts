import type { FastifyBaseLogger } from 'fastify';
import { createPeriodicTask } from '../../lib/periodic.ts';
import { type MeetingStateDeps, sweepMissedCalls } from './meetings.service.ts';

/** How often each instance looks for calls nobody answered (a missed call shows within this). */
const SWEEP_INTERVAL_MS = 2000;

/**
 * Marks unanswered calls missed. Every instance runs one; rows are claimed with SKIP LOCKED,
 * so two instances never mark (and announce) the same call twice.
 */
export function createMissedCallSweeper(deps: MeetingStateDeps & { log: FastifyBaseLogger }) {
  const periodic = createPeriodicTask(() => sweepMissedCalls(deps), deps.log, 'missed-call sweep');
  return {
    start: (intervalMs = SWEEP_INTERVAL_MS) => periodic.start(intervalMs),
    /** Stops the timer and waits for a sweep under way. */
    stop: periodic.stop,
  };
}
