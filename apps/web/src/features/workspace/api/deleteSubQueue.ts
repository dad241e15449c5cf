import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `DELETE /queues/{qid}/sub-queues/{id}`. */
export function deleteSubQueue(queueId: string, id: string): Promise<unknown> {
  return api.delete<unknown>(apiPaths.subQueue, { params: { qid: queueId, id } });
}

export function useDeleteSubQueue(queueId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteSubQueue(queueId, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.subQueues(queueId) }),
  });
}
