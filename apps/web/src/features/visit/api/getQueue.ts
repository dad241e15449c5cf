import { queryOptions, useQuery } from '@tanstack/react-query';
import { queueEndpoints } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { visitKeys } from './keys.ts';

/** `GET /company/queues/{queueId}`: a token's queue (its cancellation notice and refund share). */
function getQueue(queueId: string, signal?: AbortSignal) {
  return api.call(queueEndpoints.getQueue, { params: { queueId }, signal });
}

function queueQueryOptions(queueId: string) {
  return queryOptions({
    queryKey: visitKeys.queue(queueId),
    queryFn: ({ signal }) => getQueue(queueId, signal),
    staleTime: 60_000,
    meta: { errorShownInline: true },
  });
}

export function useQueue(queueId: string | null) {
  return useQuery({ ...queueQueryOptions(queueId ?? ''), enabled: Boolean(queueId) });
}
