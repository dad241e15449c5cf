import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { CreateServiceAreaBody, ServiceArea } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `POST /queues/{queueId}/service-areas`. */
export function createServiceArea(
  queueId: string,
  body: CreateServiceAreaBody,
): Promise<ServiceArea> {
  return api.post<ServiceArea>(apiPaths.serviceAreas, body, { params: { queueId: queueId } });
}

export function useCreateServiceArea(queueId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateServiceAreaBody) => createServiceArea(queueId, body),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: workspaceKeys.serviceAreas(queueId) }),
  });
}
