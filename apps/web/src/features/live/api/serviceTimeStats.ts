import { queryOptions, useQuery } from '@tanstack/react-query';
import { tokenEndpoints } from '@upnext/contract/tokens';
import { api } from '../../../lib/api-client.ts';
import { useLiveRefetchInterval } from '../../../lib/realtime-cache.ts';
import { liveKeys } from './keys.ts';

/** `POST /queues/sessions/service-time-query`: average, median and p90 of one session. */
function fetchServiceTimeStats(sessionId: string, signal?: AbortSignal) {
  return api.call(tokenEndpoints.serviceTimeQuery, { body: { sessionId }, signal });
}

function serviceTimeStatsQueryOptions(sessionId: string, refetchInterval: number | false = false) {
  return queryOptions({
    queryKey: liveKeys.serviceTimes(sessionId),
    queryFn: ({ signal }) => fetchServiceTimeStats(sessionId, signal),
    refetchInterval,
  });
}

export function useServiceTimeStats(sessionId: string) {
  return useQuery(serviceTimeStatsQueryOptions(sessionId, useLiveRefetchInterval()));
}
