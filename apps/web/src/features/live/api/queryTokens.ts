import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { QueueToken, TokenStatus } from '@upnext/contract/tokens';
import { api } from '../../../lib/api-client.ts';
import { useLiveRefetchInterval } from '../../../lib/realtime-cache.ts';
import { liveKeys } from './keys.ts';

/** `POST /queues/sessions/tokens-query`: a session's tokens (all statuses when none given). */
function queryTokens(
  sessionId: string,
  statuses?: readonly TokenStatus[],
  signal?: AbortSignal,
): Promise<QueueToken[]> {
  const body = statuses ? { sessionId, statuses: [...statuses] } : { sessionId };
  return api.post<QueueToken[]>('/queues/sessions/tokens-query', body, signal ? { signal } : {});
}

function tokensQueryOptions(
  sessionId: string,
  statuses?: readonly TokenStatus[],
  refetchInterval: number | false = false,
) {
  return queryOptions({
    queryKey: liveKeys.tokens(sessionId, statuses),
    queryFn: ({ signal }) => queryTokens(sessionId, statuses, signal),
    refetchInterval,
    placeholderData: keepPreviousData,
  });
}

/** Kept live by the session topic (`useLiveSession`); polled only while realtime is down. */
export function useSessionTokens(sessionId: string, statuses?: readonly TokenStatus[]) {
  return useQuery(tokensQueryOptions(sessionId, statuses, useLiveRefetchInterval()));
}
