import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { ServiceArea, UpdateServiceAreaBody } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `PATCH /queues/{queueId}/service-areas/{id}`. */
export function updateServiceArea(
  queueId: string,
  id: string,
  body: UpdateServiceAreaBody,
): Promise<ServiceArea> {
  return api.patch<ServiceArea>(apiPaths.serviceArea, body, { params: { queueId: queueId, id } });
}

export function useUpdateServiceArea(queueId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateServiceAreaBody }) =>
      updateServiceArea(queueId, id, body),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: workspaceKeys.serviceAreas(queueId) }),
  });
}
