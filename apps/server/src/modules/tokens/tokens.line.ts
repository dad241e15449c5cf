import type { SessionCounts } from '@upnext/contract/sessions';
import type { Db, Tx } from '../../db/client.ts';
import type { SessionContext } from './tokens.repository.ts';
import * as repo from './tokens.repository.ts';

const DEFAULT_SERVICE_SECONDS = 300;

type LineEntry = Awaited<ReturnType<typeof repo.waitingLine>>[number] & {
  position: number;
  estimatedWaitSeconds: number;
};

/**
 * A session's live state at one moment, computed once per change and shared by the answer,
 * the session topic and the holders' position events.
 */
export type LiveLine = {
  session: SessionContext;
  at: Date;
  counts: SessionCounts;
  /** Seconds each place in the line adds. */
  secondsPerToken: number;
  /** The line in service order. */
  entries: LineEntry[];
  byId: Map<string, LineEntry>;
  /** The tokens called last, newest first (at most 6: the board's call-out and history). */
  lastCalled: Awaited<ReturnType<typeof repo.lastCalled>>;
};

/**
 * Seconds each place adds: the median of the queue's recent service times (its last 50
 * served tokens of 30 days; the planned durations of its service types before there are
 * any), shared among the staff calling now. A booking in the line is not expected before its
 * slot starts.
 */
export async function liveLine(db: Db | Tx, session: SessionContext, now: Date): Promise<LiveLine> {
  const [rows, counts, median, counters, lastCalled] = await Promise.all([
    repo.waitingLine(db, session.sessionId, now),
    repo.sessionCounts(db, [session.sessionId], now),
    repo.recentServiceMedian(db, session.queueId, now),
    repo.activeCounters(db, session.sessionId),
    repo.lastCalled(db, session.sessionId, 6),
  ]);
  const typical =
    median ?? (await repo.plannedServiceSeconds(db, session.queueId)) ?? DEFAULT_SERVICE_SECONDS;
  const secondsPerToken = typical / Math.max(1, counters);
  const entries = rows.map((row, index) => {
    const byTurn = (index + 1) * secondsPerToken;
    const bySlot = row.slotStartsAt ? (row.slotStartsAt.getTime() - now.getTime()) / 1000 : 0;
    return {
      ...row,
      position: index + 1,
      estimatedWaitSeconds: Math.round(Math.max(byTurn, bySlot)),
    };
  });
  return {
    session,
    at: now,
    counts: counts.get(session.sessionId) as SessionCounts,
    secondsPerToken,
    entries,
    byId: new Map(entries.map((entry) => [entry.id, entry])),
    lastCalled,
  };
}
