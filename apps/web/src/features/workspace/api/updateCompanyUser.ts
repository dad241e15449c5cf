import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateCompanyUserBody } from '@upnext/contract/companies';
import { companyEndpoints } from '@upnext/contract/companies';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `PATCH /company/{companyId}/users/{userId}`: change the role, disable or re-enable. */
function updateCompanyUser(companyId: string, userId: string, body: UpdateCompanyUserBody) {
  return api.call(companyEndpoints.updateCompanyUser, { params: { companyId, userId }, body });
}

export function useUpdateCompanyUser(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, body }: { userId: string; body: UpdateCompanyUserBody }) =>
      updateCompanyUser(companyId, userId, body),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: workspaceKeys.companyUsers(companyId) }),
  });
}
