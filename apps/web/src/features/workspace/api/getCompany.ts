import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyEndpoints } from '@upnext/contract/companies';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `GET /company/{companyId}`. */
function getCompany(companyId: string, signal?: AbortSignal) {
  return api.call(companyEndpoints.getCompany, { params: { companyId }, signal });
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
