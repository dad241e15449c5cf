import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `DELETE /queues/{queueId}/service-areas/{id}`. */
export function deleteServiceArea(queueId: string, id: string): Promise<unknown> {
  return api.delete<unknown>(apiPaths.serviceArea, { params: { queueId: queueId, id } });
}

export function useDeleteServiceArea(queueId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteServiceArea(queueId, id),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: workspaceKeys.serviceAreas(queueId) }),
  });
}
