import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { SubQueue, UpdateSubQueueBody } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `PATCH /queues/{qid}/sub-queues/{id}`. */
export function updateSubQueue(
  queueId: string,
  id: string,
  body: UpdateSubQueueBody,
): Promise<SubQueue> {
  return api.patch<SubQueue>(apiPaths.subQueue, body, { params: { qid: queueId, id } });
}

export function useUpdateSubQueue(queueId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateSubQueueBody }) =>
      updateSubQueue(queueId, id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.subQueues(queueId) }),
  });
}
