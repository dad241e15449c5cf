import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `DELETE /company/{id}/users/{userId}`: remove a member (the last owner is refused). */
export function removeCompanyUser(companyId: string, userId: string): Promise<unknown> {
  return api.delete<unknown>(apiPaths.companyUser, { params: { id: companyId, userId } });
}

export function useRemoveCompanyUser(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeCompanyUser(companyId, userId),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: workspaceKeys.companyUsers(companyId) }),
  });
}
