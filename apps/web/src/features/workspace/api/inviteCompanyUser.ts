import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteCompanyUserBody } from '@upnext/contract/companies';
import { companyEndpoints } from '@upnext/contract/companies';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `POST /company/{id}/users`: invite by email with a role; the invite goes out by email. */
function inviteCompanyUser(companyId: string, body: InviteCompanyUserBody) {
  return api.call(companyEndpoints.inviteCompanyUser, { params: { id: companyId }, body });
}

export function useInviteCompanyUser(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteCompanyUserBody) => inviteCompanyUser(companyId, body),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: workspaceKeys.companyUsers(companyId) }),
  });
}
