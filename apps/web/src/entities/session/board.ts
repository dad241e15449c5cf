import { type QueryClient, queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { lightPaths } from '@upnext/contract/light-paths';
import type { SessionEvent } from '@upnext/contract/realtime';
import type { BoardCall, SessionBoard, tokenEndpoints } from '@upnext/contract/tokens';
import { api } from '../../lib/api-client.ts';
import {
  registerRealtime,
  updateLiveQuery,
  useLiveRefetchInterval,
} from '../../lib/realtime-cache.ts';
import { type RealtimeConnection, realtime } from '../../lib/stomp-client.ts';

/**
 * A session's public state (`GET /queues/sessions/{sessionId}/board`): the board, the live
 * console and the visitor's token all read it, so one cache entry per session, kept live by
 * the session topic's events.
 */
export const sessionBoardKey = (sessionId: string) => ['session-board', sessionId] as const;

function fetchSessionBoard(sessionId: string, signal?: AbortSignal) {
  return api.callAt<typeof tokenEndpoints.sessionBoard>(
    { method: 'GET', path: lightPaths.sessionBoard },
    { params: { sessionId }, signal },
  );
}

const sessionBoardQuery = (sessionId: string, refetchInterval: number | false = false) =>
  queryOptions({
    queryKey: sessionBoardKey(sessionId),
    queryFn: ({ signal }) => fetchSessionBoard(sessionId, signal),
    refetchInterval,
  });

interface BoardOptions {
  /** The connection whose topic keeps it live (the signed-in user's by default). */
  connection?: RealtimeConnection;
  /** The screen shows a failure itself (or does without the board): no error notice. */
  errorShownInline?: boolean;
}

/** Polled only while `connection` is down. */
export function useSessionBoard(
  sessionId: string,
  { connection = realtime, errorShownInline = false }: BoardOptions = {},
) {
  const refetchInterval = useLiveRefetchInterval(connection);
  return useQuery({
    ...sessionBoardQuery(sessionId, refetchInterval),
    enabled: Boolean(sessionId),
    meta: { errorShownInline },
  });
}

/** Several sessions' boards at once (a branch board): each its own entry, like `useSessionBoard`. */
export function useSessionBoards(
  sessionIds: readonly string[],
  { connection = realtime }: Pick<BoardOptions, 'connection'> = {},
) {
  const refetchInterval = useLiveRefetchInterval(connection);
  return useQueries({
    queries: sessionIds.map((sessionId) => ({
      ...sessionBoardQuery(sessionId, refetchInterval),
      meta: { errorShownInline: true },
    })),
  });
}

const RECENT = 5;

/** The board after `label` was called at `at`: the previous call moves to "called before". */
function withCall(
  board: SessionBoard,
  label: string,
  counter: string | null,
  at: string,
): SessionBoard {
  const current = { nowServing: label, nowServingCounter: counter, nowServingAt: at };
  // A recall of the token on the board: only where and when change.
  if (board.nowServing === label) return { ...board, ...current };
  const before: BoardCall[] =
    board.nowServing && board.nowServingAt
      ? [
          {
            label: board.nowServing,
            counter: board.nowServingCounter,
            calledAt: board.nowServingAt,
          },
        ]
      : [];
  const recentlyCalled = [
    ...before,
    ...board.recentlyCalled.filter((call) => call.label !== label),
  ].slice(0, RECENT);
  return { ...board, ...current, recentlyCalled };
}

/** A session's board after an event of its topic. */
function applySessionEvent(board: SessionBoard, event: SessionEvent): SessionBoard {
  if (event.type === 'session.now_serving') {
    return withCall(board, event.label, event.serviceArea, event.at);
  }
  // Normally the call-out came first; if it was missed, the call went to the session's counter.
  const called =
    event.nowServing && event.nowServing.label !== board.nowServing
      ? withCall(board, event.nowServing.label, board.counter, event.at)
      : board;
  return {
    ...called,
    status: event.status,
    notes: event.notes,
    waiting: event.waitingCount,
    averageServiceSeconds: Math.round(event.averageServiceSeconds ?? 0),
  };
}

/**
 * Puts boards read together (a branch board's sessions) in each session's own cache entry,
 * which its topic then keeps live like any board.
 */
export function seedSessionBoards(queryClient: QueryClient, boards: readonly SessionBoard[]) {
  for (const board of boards) queryClient.setQueryData(sessionBoardKey(board.sessionId), board);
}

type EventCheck = (body: unknown) => SessionEvent | null;
let checkEvent: EventCheck | undefined;
let loadingCheck = false;
const waiting: Array<{ apply: () => void; resync: () => void }> = [];

/**
 * Runs `apply` with `body` once it is checked as a session event (dropped if it is not one).
 * The events' schema (and zod) is loaded with the first event, not with the board: a wall
 * screen paints and subscribes without it. Events that arrive meanwhile wait, in order; if the
 * schema cannot be loaded, their boards are read again (`resync`) instead.
 */
function withSessionEvent(body: unknown, apply: (event: SessionEvent) => void, resync: () => void) {
  const run = (check: EventCheck) => {
    const event = check(body);
    if (event) apply(event);
  };
  if (checkEvent) {
    run(checkEvent);
    return;
  }
  waiting.push({ apply: () => checkEvent && run(checkEvent), resync });
  if (loadingCheck) return;
  loadingCheck = true;
  void import('@upnext/contract/realtime').then(
    ({ sessionEvent }) => {
      checkEvent = (value) => {
        const parsed = sessionEvent.safeParse(value);
        return parsed.success ? parsed.data : null;
      };
      for (const event of waiting.splice(0)) event.apply();
    },
    () => {
      loadingCheck = false;
      for (const event of waiting.splice(0)) event.resync();
    },
  );
}

registerRealtime('/topic/session/:sessionId', {
  apply(body, queryClient, { sessionId = '' }) {
    withSessionEvent(
      body,
      (event) =>
        updateLiveQuery<SessionBoard>(queryClient, sessionBoardKey(sessionId), (board) =>
          board ? applySessionEvent(board, event) : board,
        ),
      () => void queryClient.invalidateQueries({ queryKey: sessionBoardKey(sessionId) }),
    );
  },
  resync(queryClient, { sessionId = '' }) {
    void queryClient.invalidateQueries({ queryKey: sessionBoardKey(sessionId) });
  },
});
