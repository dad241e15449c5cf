import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { ServiceType } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `GET /queues/{qid}/service-types`. */
export function listServiceTypes(queueId: string, signal?: AbortSignal): Promise<ServiceType[]> {
  return api.get<ServiceType[]>(apiPaths.serviceTypes, { params: { qid: queueId }, signal });
}

export function serviceTypesQueryOptions(queueId: string) {
  return queryOptions({
    queryKey: workspaceKeys.serviceTypes(queueId),
    queryFn: ({ signal }) => listServiceTypes(queueId, signal),
  });
}

export function useServiceTypes(queueId: string, enabled = true) {
  return useQuery({ ...serviceTypesQueryOptions(queueId), enabled });
}
