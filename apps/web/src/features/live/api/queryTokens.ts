import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TokenStatus } from '@upnext/contract/tokens';
import { queryTokens } from '../../../entities/token/api.ts';
import { useLiveRefetchInterval } from '../../../lib/realtime-cache.ts';
import { liveKeys } from './keys.ts';

/** `POST /queues/sessions/tokens-query`: a session's tokens (all statuses when none given). */
function sessionTokens(
  sessionId: string,
  statuses: readonly TokenStatus[] | undefined,
  signal?: AbortSignal,
) {
  return queryTokens(statuses ? { sessionId, statuses: [...statuses] } : { sessionId }, signal);
}

function tokensQueryOptions(
  sessionId: string,
  statuses?: readonly TokenStatus[],
  refetchInterval: number | false = false,
) {
  return queryOptions({
    queryKey: liveKeys.tokens(sessionId, statuses),
    queryFn: ({ signal }) => sessionTokens(sessionId, statuses, signal),
    refetchInterval,
    placeholderData: keepPreviousData,
  });
}

/** Kept live by the session topic (`useLiveSession`); polled only while realtime is down. */
export function useSessionTokens(sessionId: string, statuses?: readonly TokenStatus[]) {
  return useQuery(tokensQueryOptions(sessionId, statuses, useLiveRefetchInterval()));
}
