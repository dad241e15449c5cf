import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { Queue } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `GET /company/queues/{queueId}`. */
export function getQueue(queueId: string, signal?: AbortSignal): Promise<Queue> {
  return api.get<Queue>(apiPaths.queue, { params: { queueId }, signal });
}

export function queueQueryOptions(queueId: string) {
  return queryOptions({
    queryKey: [...workspaceKeys.queue(queueId), 'detail'],
    queryFn: ({ signal }) => getQueue(queueId, signal),
  });
}

export function useQueue(queueId: string) {
  return useQuery(queueQueryOptions(queueId));
}
