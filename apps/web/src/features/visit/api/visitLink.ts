import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sessionEvent } from '@upnext/contract/realtime';
import { type Visit, visitEndpoints } from '@upnext/contract/visits';
import { api } from '../../../lib/api-client.ts';
import { registerRealtime, useLiveRefetchInterval } from '../../../lib/realtime-cache.ts';
import { publicRealtime } from '../../../lib/stomp-client.ts';
import { visitKeys } from './keys.ts';

/**
 * A token followed by its status link (`/visit/{key}`), signed in or not: read from
 * `GET /visits/{key}`, kept live by `/topic/visit/{key}` (its session's public events) over the
 * anonymous connection, and polled only while that connection is down.
 */
export function useVisitByLink(key: string) {
  const refetchInterval = useLiveRefetchInterval(publicRealtime);
  return useQuery({
    queryKey: visitKeys.link(key),
    queryFn: ({ signal }) => api.call(visitEndpoints.visit, { params: { key }, signal }),
    enabled: Boolean(key),
    refetchInterval,
    // A link that names nothing or has ended says so at once; retrying cannot change that.
    retry: false,
    meta: { errorShownInline: true },
  });
}

export function useLeaveByLink(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.call(visitEndpoints.leaveVisit, { params: { key } }),
    onSuccess: (left) => queryClient.setQueryData<Visit>(visitKeys.link(key), left),
  });
}

/**
 * The session's events name no visitor, so the link reads its own place again after any change
 * that may have moved it; a token added at the end of the line (`placesMoved: false`) moves
 * nobody, so a rush of arrivals does not make every waiting visitor's page read again.
 */
registerRealtime('/topic/visit/:key', {
  apply(body, queryClient, { key = '' }) {
    const parsed = sessionEvent.safeParse(body);
    if (!parsed.success) return;
    if (parsed.data.type === 'session.state' && parsed.data.placesMoved === false) return;
    void queryClient.invalidateQueries({ queryKey: visitKeys.link(key) });
  },
  resync(queryClient, { key = '' }) {
    void queryClient.invalidateQueries({ queryKey: visitKeys.link(key) });
  },
});
