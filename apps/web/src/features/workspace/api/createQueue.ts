import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { CreateQueueBody, Queue } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `POST /company/queues`. */
function createQueue(body: CreateQueueBody): Promise<Queue> {
  return api.post<Queue>(apiPaths.queues, body);
}

export function useCreateQueue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createQueue,
    onSuccess: (queue) =>
      queryClient.invalidateQueries({ queryKey: workspaceKeys.queues(queue.companyId) }),
  });
}
