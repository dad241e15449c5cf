import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { Company } from '@upnext/contract/companies';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `GET /company/{id}`. */
export function getCompany(companyId: string, signal?: AbortSignal): Promise<Company> {
  return api.get<Company>(apiPaths.company, { params: { id: companyId }, signal });
}

export function companyQueryOptions(companyId: string) {
  return queryOptions({
    queryKey: workspaceKeys.company(companyId),
    queryFn: ({ signal }) => getCompany(companyId, signal),
  });
}

export function useCompany(companyId: string) {
  return useQuery(companyQueryOptions(companyId));
}
