import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { CompanyUser } from '@upnext/contract/companies';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `GET /company/{id}/users`: the company's members and pending invites. */
export function listCompanyUsers(companyId: string, signal?: AbortSignal): Promise<CompanyUser[]> {
  return api.get<CompanyUser[]>(apiPaths.companyUsers, { params: { id: companyId }, signal });
}

export function companyUsersQueryOptions(companyId: string) {
  return queryOptions({
    queryKey: workspaceKeys.companyUsers(companyId),
    queryFn: ({ signal }) => listCompanyUsers(companyId, signal),
  });
}

export function useCompanyUsers(companyId: string, enabled = true) {
  return useQuery({ ...companyUsersQueryOptions(companyId), enabled });
}
