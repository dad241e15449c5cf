import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { CompanyUser, InviteCompanyUserBody } from '@upnext/contract/companies';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `POST /company/{id}/users`: invite by email with a role; the invite goes out by email. */
export function inviteCompanyUser(
  companyId: string,
  body: InviteCompanyUserBody,
): Promise<CompanyUser> {
  return api.post<CompanyUser>(apiPaths.companyUsers, body, { params: { id: companyId } });
}

export function useInviteCompanyUser(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteCompanyUserBody) => inviteCompanyUser(companyId, body),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: workspaceKeys.companyUsers(companyId) }),
  });
}
