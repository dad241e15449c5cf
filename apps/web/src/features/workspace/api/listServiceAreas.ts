import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { ServiceArea } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `GET /queues/{queueId}/service-areas`. */
export function listServiceAreas(queueId: string, signal?: AbortSignal): Promise<ServiceArea[]> {
  return api.get<ServiceArea[]>(apiPaths.serviceAreas, { params: { queueId: queueId }, signal });
}

export function serviceAreasQueryOptions(queueId: string) {
  return queryOptions({
    queryKey: workspaceKeys.serviceAreas(queueId),
    queryFn: ({ signal }) => listServiceAreas(queueId, signal),
  });
}

export function useServiceAreas(queueId: string, enabled = true) {
  return useQuery({ ...serviceAreasQueryOptions(queueId), enabled });
}
