import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyEndpoints } from '@upnext/contract/companies';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `DELETE /company/{companyId}/users/{userId}`: remove a member (the last owner is refused). */
function removeCompanyUser(companyId: string, userId: string) {
  return api.call(companyEndpoints.removeCompanyUser, { params: { companyId, userId } });
}

export function useRemoveCompanyUser(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeCompanyUser(companyId, userId),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: workspaceKeys.companyUsers(companyId) }),
  });
}
