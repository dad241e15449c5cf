import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { ServiceType, UpdateServiceTypeBody } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `PATCH /queues/{qid}/service-types/{id}`. */
export function updateServiceType(
  queueId: string,
  id: string,
  body: UpdateServiceTypeBody,
): Promise<ServiceType> {
  return api.patch<ServiceType>(apiPaths.serviceType, body, { params: { qid: queueId, id } });
}

export function useUpdateServiceType(queueId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateServiceTypeBody }) =>
      updateServiceType(queueId, id, body),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: workspaceKeys.serviceTypes(queueId) }),
  });
}
