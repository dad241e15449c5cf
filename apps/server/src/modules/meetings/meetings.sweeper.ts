import type { FastifyBaseLogger } from 'fastify';
import { createPeriodicTask } from '../../lib/periodic.ts';
import {
  endCallsOfFinishedVisits,
  type MeetingStateDeps,
  sweepMissedCalls,
} from './meetings.service.ts';

/** How often each instance looks for calls nobody answered (a missed call shows within this). */
const SWEEP_INTERVAL_MS = 2000;

/**
 * Marks unanswered calls missed, and ends the calls of visits that are over. Every instance
 * runs one; rows are claimed with SKIP LOCKED, so two instances never change (and announce)
 * the same call twice.
 */
export function createMissedCallSweeper(deps: MeetingStateDeps & { log: FastifyBaseLogger }) {
  const sweep = async () => {
    await sweepMissedCalls(deps);
    await endCallsOfFinishedVisits(deps);
  };
  const periodic = createPeriodicTask(sweep, deps.log, 'meeting sweep');
  return {
    start: (intervalMs = SWEEP_INTERVAL_MS) => periodic.start(intervalMs),
    /** Stops the timer and waits for a sweep under way. */
    stop: periodic.stop,
  };
}
