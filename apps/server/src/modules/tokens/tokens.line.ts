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

/** How long an issue may reuse a queue's typical service time (see `typicalSeconds`). */
const SERVICE_TIME_TTL_MS = 5_000;
const typicalByQueue = new Map<string, { at: number; seconds: number }>();

/**
 * The typical length of a service in the queue: the median of its recent service times (its
 * last 50 served tokens of 30 days; the planned durations of its service types before there
 * are any). Issuing changes no service time, so a burst of issues reuses a figure up to 5 s
 * old (`recent`) instead of asking again for every token; every other change computes it
 * afresh (`fresh`) and leaves it for the next issues. Per process: another instance's
 * completion reaches this one's issues within the 5 s.
 */
async function typicalSeconds(
  db: Db | Tx,
  queueId: string,
  now: Date,
  serviceTimes: 'fresh' | 'recent',
) {
  const cached = typicalByQueue.get(queueId);
  const age = cached ? now.getTime() - cached.at : Number.POSITIVE_INFINITY;
  if (cached && serviceTimes === 'recent' && age >= 0 && age < SERVICE_TIME_TTL_MS) {
    return cached.seconds;
  }
  const seconds =
    (await repo.recentServiceMedian(db, queueId, now)) ??
    (await repo.plannedServiceSeconds(db, queueId)) ??
    DEFAULT_SERVICE_SECONDS;
  typicalByQueue.set(queueId, { at: now.getTime(), seconds });
  return seconds;
}

/**
 * Seconds each place adds: the queue's typical service time shared among the staff calling
 * now. A booking in the line is not expected before its slot starts.
 */
export async function liveLine(
  db: Db | Tx,
  session: SessionContext,
  now: Date,
  serviceTimes: 'fresh' | 'recent' = 'fresh',
): Promise<LiveLine> {
  const [rows, counts, typical, counters, lastCalled] = await Promise.all([
    repo.waitingLine(db, session.sessionId, now),
    repo.sessionCounts(db, [session.sessionId], now),
    typicalSeconds(db, session.queueId, now, serviceTimes),
    repo.activeCounters(db, session.sessionId),
    repo.lastCalled(db, session.sessionId, 6),
  ]);
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
