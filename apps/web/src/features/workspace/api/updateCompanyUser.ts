import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { CompanyUser, UpdateCompanyUserBody } from '@upnext/contract/companies';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `PATCH /company/{id}/users/{userId}`: change the role, disable or re-enable. */
export function updateCompanyUser(
  companyId: string,
  userId: string,
  body: UpdateCompanyUserBody,
): Promise<CompanyUser> {
  return api.patch<CompanyUser>(apiPaths.companyUser, body, {
    params: { id: companyId, userId },
  });
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
