import { queryOptions, useQuery } from '@tanstack/react-query';
import { sessionEvent } from '@upnext/contract/realtime';
import type { SessionBoard } from '@upnext/contract/tokens';
import { tokenEndpoints } from '@upnext/contract/tokens';
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
  return api.call(tokenEndpoints.sessionBoard, { params: { sessionId }, signal });
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

const RECENT = 5;

/** The board after `label` was called: the previous call moves to "called before". */
function withCall(board: SessionBoard, label: string, counter: string | null): SessionBoard {
  if (board.nowServing === label) return { ...board, nowServingCounter: counter };
  const recentlyCalled = board.nowServing
    ? [board.nowServing, ...board.recentlyCalled.filter((n) => n !== label)].slice(0, RECENT)
    : board.recentlyCalled;
  return { ...board, nowServing: label, nowServingCounter: counter, recentlyCalled };
}

registerRealtime('/topic/session/:sessionId', {
  apply(body, queryClient, { sessionId = '' }) {
    const parsed = sessionEvent.safeParse(body);
    if (!parsed.success) return;
    const event = parsed.data;
    updateLiveQuery<SessionBoard>(queryClient, sessionBoardKey(sessionId), (board) => {
      if (!board) return board;
      if (event.type === 'session.now_serving') {
        return withCall(board, event.label, event.serviceArea);
      }
      // Normally the call-out came first; if it was missed, the counter is not known here.
      const called =
        event.nowServing && event.nowServing.label !== board.nowServing
          ? withCall(board, event.nowServing.label, null)
          : board;
      return {
        ...called,
        status: event.status,
        notes: event.notes,
        waiting: event.waitingCount,
        averageServiceSeconds: Math.round(event.averageServiceSeconds ?? 0),
      };
    });
  },
  resync(queryClient, { sessionId = '' }) {
    void queryClient.invalidateQueries({ queryKey: sessionBoardKey(sessionId) });
  },
});
