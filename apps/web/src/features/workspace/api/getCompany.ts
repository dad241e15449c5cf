import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoints } from '@upnext/contract/endpoints';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `GET /company/{companyId}`. */
function getCompany(companyId: string, signal?: AbortSignal) {
  return api.call(endpoints.getCompany, { params: { companyId }, signal });
}

function companyQueryOptions(companyId: string) {
  return queryOptions({
    queryKey: workspaceKeys.company(companyId),
    queryFn: ({ signal }) => getCompany(companyId, signal),
  });
}

export function useCompany(companyId: string) {
  return useQuery(companyQueryOptions(companyId));
}
