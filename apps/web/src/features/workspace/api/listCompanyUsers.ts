import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyEndpoints } from '@upnext/contract/companies';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `GET /company/{id}/users`: the company's members and pending invites. */
function listCompanyUsers(companyId: string, signal?: AbortSignal) {
  return api.call(companyEndpoints.listCompanyUsers, { params: { id: companyId }, signal });
}

function companyUsersQueryOptions(companyId: string) {
  return queryOptions({
    queryKey: workspaceKeys.companyUsers(companyId),
    queryFn: ({ signal }) => listCompanyUsers(companyId, signal),
  });
}

export function useCompanyUsers(companyId: string, enabled = true) {
  return useQuery({ ...companyUsersQueryOptions(companyId), enabled });
}
