import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { Company, UpdateCompanyBody } from '@upnext/contract/companies';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `PATCH /company/{id}` (owner or admin). */
export function updateCompany(companyId: string, body: UpdateCompanyBody): Promise<Company> {
  return api.patch<Company>(apiPaths.company, body, { params: { id: companyId } });
}

export function useUpdateCompany(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateCompanyBody) => updateCompany(companyId, body),
    onSuccess: async (company) => {
      queryClient.setQueryData(workspaceKeys.company(companyId), company);
      // The company's name shows in the picker, which reads the roles record.
      await queryClient.invalidateQueries({ queryKey: workspaceKeys.userData() });
    },
  });
}
