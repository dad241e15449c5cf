import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionBoard } from '@upnext/contract/tokens';
import { api } from '../../../lib/api-client.ts';

export function fetchSessionBoard(sessionId: string, signal?: AbortSignal) {
  return api.get<SessionBoard>('/queues/sessions/:sessionId/board', {
    params: { sessionId },
    ...(signal ? { signal } : {}),
  });
}

/** Polled as well as pushed: a board left on all day must recover from any lost event. */
export const sessionBoardQuery = (sessionId: string) =>
  queryOptions({
    queryKey: ['session-board', sessionId],
    queryFn: ({ signal }) => fetchSessionBoard(sessionId, signal),
    refetchInterval: 5_000,
    staleTime: 0,
  });

export function useSessionBoard(sessionId: string) {
  return useQuery(sessionBoardQuery(sessionId));
}
