import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryTokens } from '../../../entities/token/api.ts';
import { useCurrentUser } from '../../../lib/auth-session.ts';
import { useLiveRefetchInterval } from '../../../lib/realtime-cache.ts';
import { visitKeys } from './keys.ts';

/** `POST /queues/sessions/tokens-query` {mine: true}: the caller's tokens across sessions. */
function getMyTokens(signal?: AbortSignal) {
  return queryTokens({ mine: true }, signal);
}

function myTokensQueryOptions(refetchInterval: number | false = false) {
  return queryOptions({
    queryKey: visitKeys.myTokens(),
    queryFn: ({ signal }) => getMyTokens(signal),
    refetchInterval,
    staleTime: 0,
  });
}

/** Kept live by `useLiveTokens`' topics; polled only while realtime is down. */
export function useMyTokens(enabled = true) {
  const user = useCurrentUser();
  const refetchInterval = useLiveRefetchInterval();
  return useQuery({ ...myTokensQueryOptions(refetchInterval), enabled: enabled && Boolean(user) });
}
