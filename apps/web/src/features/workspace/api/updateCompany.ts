import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateCompanyBody } from '@upnext/contract/companies';
import { companyEndpoints } from '@upnext/contract/companies';
import { userKeys } from '../../../entities/user/keys.ts';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `PATCH /company/{companyId}` (owner or admin). */
function updateCompany(companyId: string, body: UpdateCompanyBody) {
  return api.call(companyEndpoints.updateCompany, { params: { companyId }, body });
}

export function useUpdateCompany(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateCompanyBody) => updateCompany(companyId, body),
    onSuccess: async (company) => {
      queryClient.setQueryData(workspaceKeys.company(companyId), company);
      // The company's name shows in the picker, which reads the roles record.
      await queryClient.invalidateQueries({ queryKey: userKeys.data() });
    },
  });
}
