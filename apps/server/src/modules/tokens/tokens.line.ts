import type { SessionCounts } from '@upnext/contract/sessions';
import type { Db, Tx } from '../../db/client.ts';
import { queryAll } from '../../db/query-all.ts';
import type { SessionContext, TokenRow } from './tokens.repository.ts';
import * as repo from './tokens.repository.ts';

const DEFAULT_SERVICE_SECONDS = 300;

type LineEntry = Pick<TokenRow, 'id' | 'userId' | 'number' | 'displayNumber' | 'slotStartsAt'> & {
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
  /**
   * The places that changed, in service order: the whole line, or only the new token's when
   * it joined at the end (`appendedLine`: nobody else's place moved).
   */
  entries: LineEntry[];
  byId: Map<string, LineEntry>;
  /** The tokens called last, newest first (at most 6: the board's call-out and history). */
  lastCalled: Awaited<ReturnType<typeof repo.sessionFigures>>['lastCalled'];
};

/** How long an issue may reuse a queue's typical service time (see `typicalSeconds`). */
const SERVICE_TIME_TTL_MS = 5_000;
const typicalByQueue = new Map<string, { at: number; seconds: Promise<number> }>();

/**
 * The typical length of a service in the queue: the median of its recent service times (its
 * last 50 served tokens of 30 days; the planned durations of its service types before there
 * are any). Issuing changes no service time, so a burst of issues (and the board) reuses a
 * figure up to 5 s old (`recent`), the same look-up for all the issues that ask while it runs,
 * instead of asking again each time; every other change computes it afresh (`fresh`) and
 * leaves it for the next issues. Per process: another instance's completion reaches this
 * one's issues within the 5 s.
 */
function typicalSeconds(
  db: Db | Tx,
  queueId: string,
  now: Date,
  serviceTimes: 'fresh' | 'recent',
): Promise<number> {
  const cached = typicalByQueue.get(queueId);
  const age = cached ? now.getTime() - cached.at : Number.POSITIVE_INFINITY;
  if (cached && serviceTimes === 'recent' && age >= 0 && age < SERVICE_TIME_TTL_MS) {
    return cached.seconds;
  }
  const seconds = (async () =>
    (await repo.recentServiceMedian(db, queueId, now)) ??
    (await repo.plannedServiceSeconds(db, queueId)) ??
    DEFAULT_SERVICE_SECONDS)();
  const entry = { at: now.getTime(), seconds };
  if (serviceTimes === 'recent') {
    // Shared while it runs (issues ask on the pool); a failed look-up is not kept.
    typicalByQueue.set(queueId, entry);
    seconds.catch(() => {
      if (typicalByQueue.get(queueId) === entry) typicalByQueue.delete(queueId);
    });
  } else {
    // Computed in the caller's transaction: kept for others once it has succeeded.
    void seconds.then(() => typicalByQueue.set(queueId, entry)).catch(() => {});
  }
  return seconds;
}

type Figures = Omit<LiveLine, 'entries' | 'byId'>;

/**
 * The session's figures without its line: counts, last calls, and the seconds each place
 * adds (the queue's typical service time shared among the staff calling now).
 */
export async function sessionFigures(
  db: Db | Tx,
  session: SessionContext,
  now: Date,
  serviceTimes: 'fresh' | 'recent' = 'fresh',
): Promise<Figures> {
  const [figures, typical] = await queryAll(db, [
    () => repo.sessionFigures(db, session.sessionId, now),
    () => typicalSeconds(db, session.queueId, now, serviceTimes),
  ]);
  return {
    session,
    at: now,
    counts: figures.counts,
    secondsPerToken: typical / Math.max(1, figures.counters),
    lastCalled: figures.lastCalled,
  };
}

/** A place's estimate: its turn, and for a booking not before its slot starts. */
function placed(
  row: Pick<TokenRow, 'slotStartsAt'>,
  position: number,
  figures: Figures,
): { position: number; estimatedWaitSeconds: number } {
  const byTurn = position * figures.secondsPerToken;
  const bySlot = row.slotStartsAt ? (row.slotStartsAt.getTime() - figures.at.getTime()) / 1000 : 0;
  return { position, estimatedWaitSeconds: Math.round(Math.max(byTurn, bySlot)) };
}

function withEntries(figures: Figures, entries: LineEntry[]): LiveLine {
  return { ...figures, entries, byId: new Map(entries.map((entry) => [entry.id, entry])) };
}

/** The session's figures and its whole line in order (position = index + 1). */
export async function liveLine(
  db: Db | Tx,
  session: SessionContext,
  now: Date,
  serviceTimes: 'fresh' | 'recent' = 'fresh',
): Promise<LiveLine> {
  const [figures, rows] = await queryAll(db, [
    () => sessionFigures(db, session, now, serviceTimes),
    () => repo.waitingLine(db, session.sessionId, now),
  ]);
  return withEntries(
    figures,
    rows.map((row, index) => ({ ...row, ...placed(row, index + 1, figures) })),
  );
}

/**
 * After a token joined at the end of the line (`position` = the line's length, counted under
 * the session's lock): the figures and that one place, without reading the line.
 */
export async function appendedLine(
  db: Db,
  session: SessionContext,
  token: TokenRow,
  position: number,
  now: Date,
): Promise<LiveLine> {
  const figures = await sessionFigures(db, session, now, 'recent');
  return withEntries(figures, [{ ...token, ...placed(token, position, figures) }]);
}
