import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateQueueBody } from '@upnext/contract/queues';
import { queueEndpoints } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `PATCH /company/queues/{queueId}`: edit, archive or restore (`status`), new join code. */
function updateQueue(queueId: string, body: UpdateQueueBody) {
  return api.call(queueEndpoints.updateQueue, { params: { queueId }, body });
}

export function useUpdateQueue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ queueId, body }: { queueId: string; body: UpdateQueueBody }) =>
      updateQueue(queueId, body),
    onSuccess: async (queue) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: workspaceKeys.queues(queue.companyId) }),
        queryClient.invalidateQueries({ queryKey: workspaceKeys.queue(queue.id) }),
      ]);
    },
  });
}
