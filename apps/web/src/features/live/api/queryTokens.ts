import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { QueueToken, TokenStatus } from '@upnext/contract/tokens';
import { api } from '../../../lib/api-client.ts';
import { LIVE_REFETCH_MS, liveKeys } from './keys.ts';

/** `POST /queues/sessions/tokens-query`: a session's tokens (all statuses when none given). */
export function queryTokens(
  sessionId: string,
  statuses?: readonly TokenStatus[],
  signal?: AbortSignal,
): Promise<QueueToken[]> {
  const body = statuses ? { sessionId, statuses: [...statuses] } : { sessionId };
  return api.post<QueueToken[]>('/queues/sessions/tokens-query', body, signal ? { signal } : {});
}

export function tokensQueryOptions(
  sessionId: string,
  statuses?: readonly TokenStatus[],
  live = true,
) {
  return queryOptions({
    queryKey: liveKeys.tokens(sessionId, statuses),
    queryFn: ({ signal }) => queryTokens(sessionId, statuses, signal),
    refetchInterval: live ? LIVE_REFETCH_MS : false,
    placeholderData: keepPreviousData,
  });
}

export function useSessionTokens(
  sessionId: string,
  statuses?: readonly TokenStatus[],
  live = true,
) {
  return useQuery(tokensQueryOptions(sessionId, statuses, live));
}
