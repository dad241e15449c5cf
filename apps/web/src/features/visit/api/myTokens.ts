import { queryOptions, useQuery } from '@tanstack/react-query';
import type { QueueToken } from '@upnext/contract/tokens';
import { api } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth-session.ts';
import { visitKeys, visitPaths } from './keys.ts';

/** `POST /queues/sessions/tokens-query` {mine: true}: the caller's tokens across sessions. */
export function getMyTokens(signal?: AbortSignal): Promise<QueueToken[]> {
  return api.post<QueueToken[]>(visitPaths.tokensQuery, { mine: true }, { signal });
}

/** Polled every 5 s as well as refreshed on the user's topic: a lost event must not stall it. */
export function myTokensQueryOptions() {
  return queryOptions({
    queryKey: visitKeys.myTokens(),
    queryFn: ({ signal }) => getMyTokens(signal),
    refetchInterval: 5_000,
    staleTime: 0,
  });
}

export function useMyTokens(enabled = true) {
  const user = useCurrentUser();
  return useQuery({ ...myTokensQueryOptions(), enabled: enabled && Boolean(user) });
}
