import { queryOptions, useQuery } from '@tanstack/react-query';
import { sessionEndpoints } from '@upnext/contract/sessions';
import { api } from '../../../lib/api-client.ts';
import { visitKeys } from './keys.ts';

/** `GET /queues/sessions/{sessionId}/services`: the bookable services of a session. */
function getSessionServices(sessionId: string, signal?: AbortSignal) {
  return api.call(sessionEndpoints.listSessionServices, { params: { sessionId }, signal });
}

function sessionServicesQueryOptions(sessionId: string) {
  return queryOptions({
    queryKey: visitKeys.services(sessionId),
    queryFn: ({ signal }) => getSessionServices(sessionId, signal),
    meta: { errorShownInline: true },
  });
}

export function useSessionServices(sessionId: string) {
  return useQuery(sessionServicesQueryOptions(sessionId));
}
