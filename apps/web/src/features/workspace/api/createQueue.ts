import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateQueueBody } from '@upnext/contract/queues';
import { queueEndpoints } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `POST /company/queues`. */
function createQueue(body: CreateQueueBody) {
  return api.call(queueEndpoints.createQueue, { body });
}

export function useCreateQueue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createQueue,
    onSuccess: (queue) =>
      queryClient.invalidateQueries({ queryKey: workspaceKeys.queues(queue.companyId) }),
  });
}
