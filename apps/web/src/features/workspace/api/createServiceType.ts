import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { CreateServiceTypeBody, ServiceType } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `POST /queues/{qid}/service-types`. */
export function createServiceType(
  queueId: string,
  body: CreateServiceTypeBody,
): Promise<ServiceType> {
  return api.post<ServiceType>(apiPaths.serviceTypes, body, { params: { qid: queueId } });
}

export function useCreateServiceType(queueId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateServiceTypeBody) => createServiceType(queueId, body),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: workspaceKeys.serviceTypes(queueId) }),
  });
}
