import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `DELETE /queues/{qid}/service-types/{id}`. */
export function deleteServiceType(queueId: string, id: string): Promise<unknown> {
  return api.delete<unknown>(apiPaths.serviceType, { params: { qid: queueId, id } });
}

export function useDeleteServiceType(queueId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteServiceType(queueId, id),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: workspaceKeys.serviceTypes(queueId) }),
  });
}
