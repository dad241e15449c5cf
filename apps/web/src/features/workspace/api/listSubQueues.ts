import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { SubQueue } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `GET /queues/{qid}/sub-queues`. */
export function listSubQueues(queueId: string, signal?: AbortSignal): Promise<SubQueue[]> {
  return api.get<SubQueue[]>(apiPaths.subQueues, { params: { qid: queueId }, signal });
}

export function subQueuesQueryOptions(queueId: string) {
  return queryOptions({
    queryKey: workspaceKeys.subQueues(queueId),
    queryFn: ({ signal }) => listSubQueues(queueId, signal),
  });
}

export function useSubQueues(queueId: string, enabled = true) {
  return useQuery({ ...subQueuesQueryOptions(queueId), enabled });
}
