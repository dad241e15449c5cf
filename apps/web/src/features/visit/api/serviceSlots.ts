import { queryOptions, useQuery } from '@tanstack/react-query';
import { sessionEndpoints } from '@upnext/contract/sessions';
import { api } from '../../../lib/api-client.ts';
import { visitKeys } from './keys.ts';

/** `GET /queues/sessions/services/{serviceId}/slots`: a service's slots and what is left. */
function getServiceSlots(serviceId: string, signal?: AbortSignal) {
  return api.call(sessionEndpoints.listSlots, { params: { serviceId }, signal });
}

function serviceSlotsQueryOptions(serviceId: string) {
  return queryOptions({
    queryKey: visitKeys.slots(serviceId),
    queryFn: ({ signal }) => getServiceSlots(serviceId, signal),
    meta: { errorShownInline: true },
  });
}

export function useServiceSlots(serviceId: string | null) {
  return useQuery({ ...serviceSlotsQueryOptions(serviceId ?? ''), enabled: Boolean(serviceId) });
}
