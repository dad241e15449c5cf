import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { Company, CreateCompanyBody } from '@upnext/contract/companies';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `POST /company`: the caller becomes its owner. */
export function createCompany(body: CreateCompanyBody): Promise<Company> {
  return api.post<Company>(apiPaths.companies, body);
}

export function useCreateCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCompany,
    onSuccess: async (company) => {
      queryClient.setQueryData(workspaceKeys.company(company.id), company);
      await queryClient.invalidateQueries({ queryKey: workspaceKeys.userData() });
    },
  });
}
