import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionService } from '@upnext/contract/sessions';
import { api } from '../../../lib/api-client.ts';
import { visitKeys, visitPaths } from './keys.ts';

/** `GET /queues/sessions/{sessionId}/services`: the bookable services of a session. */
export function getSessionServices(sessionId: string, signal?: AbortSignal) {
  return api.get<SessionService[]>(visitPaths.services, { params: { sessionId }, signal });
}

export function sessionServicesQueryOptions(sessionId: string) {
  return queryOptions({
    queryKey: visitKeys.services(sessionId),
    queryFn: ({ signal }) => getSessionServices(sessionId, signal),
    meta: { errorShownInline: true },
  });
}

export function useSessionServices(sessionId: string) {
  return useQuery(sessionServicesQueryOptions(sessionId));
}
