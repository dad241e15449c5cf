import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { CreateSubQueueBody, SubQueue } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `POST /queues/{qid}/sub-queues`. */
export function createSubQueue(queueId: string, body: CreateSubQueueBody): Promise<SubQueue> {
  return api.post<SubQueue>(apiPaths.subQueues, body, { params: { qid: queueId } });
}

export function useCreateSubQueue(queueId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSubQueueBody) => createSubQueue(queueId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.subQueues(queueId) }),
  });
}
