import type { SessionContext } from './tokens.repository.ts';
import * as repo from './tokens.repository.ts';
import type { TokensDeps } from './tokens.service.ts';

const DEFAULT_SERVICE_SECONDS = 300;

/**
 * Seconds each place in the line adds: the recent median service time of the queue (its
 * planned durations before there is history), shared among the staff calling now.
 */
export async function secondsPerToken(deps: TokensDeps, session: SessionContext) {
  const stats = await repo.serviceTimeStats(deps.db, { queueId: session.queueId });
  const typical =
    stats?.serviceMedian ??
    (await repo.plannedServiceSeconds(deps.db, session.queueId)) ??
    DEFAULT_SERVICE_SECONDS;
  const counters = Math.max(1, await repo.activeCounters(deps.db, session.sessionId));
  return typical / counters;
}
