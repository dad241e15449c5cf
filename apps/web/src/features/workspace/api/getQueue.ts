import { queryOptions, useQuery } from '@tanstack/react-query';
import { queueEndpoints } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `GET /company/queues/{queueId}`. */
function getQueue(queueId: string, signal?: AbortSignal) {
  return api.call(queueEndpoints.getQueue, { params: { queueId }, signal });
}

function queueQueryOptions(queueId: string) {
  return queryOptions({
    queryKey: [...workspaceKeys.queue(queueId), 'detail'],
    queryFn: ({ signal }) => getQueue(queueId, signal),
  });
}

export function useQueue(queueId: string) {
  return useQuery(queueQueryOptions(queueId));
}
