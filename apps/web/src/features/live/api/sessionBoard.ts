import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionBoard } from '@upnext/contract/tokens';
import { api } from '../../../lib/api-client.ts';
import { LIVE_REFETCH_MS, liveKeys } from './keys.ts';

/** `GET /queues/sessions/{sessionId}/board`: the session's names and status. */
export function fetchSessionBoard(sessionId: string, signal?: AbortSignal) {
  return api.get<SessionBoard>('/queues/sessions/:sessionId/board', {
    params: { sessionId },
    ...(signal ? { signal } : {}),
  });
}

export function sessionBoardQueryOptions(sessionId: string) {
  return queryOptions({
    queryKey: liveKeys.board(sessionId),
    queryFn: ({ signal }) => fetchSessionBoard(sessionId, signal),
    refetchInterval: LIVE_REFETCH_MS,
  });
}

export function useSessionBoard(sessionId: string) {
  return useQuery(sessionBoardQueryOptions(sessionId));
}
