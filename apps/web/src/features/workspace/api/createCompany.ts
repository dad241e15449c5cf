import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateCompanyBody } from '@upnext/contract/companies';
import { companyEndpoints } from '@upnext/contract/companies';
import { userKeys } from '../../../entities/user/keys.ts';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `POST /company`: the caller becomes its owner. */
function createCompany(body: CreateCompanyBody) {
  return api.call(companyEndpoints.createCompany, { body });
}

export function useCreateCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCompany,
    onSuccess: async (company) => {
      queryClient.setQueryData(workspaceKeys.company(company.id), company);
      await queryClient.invalidateQueries({ queryKey: userKeys.data() });
    },
  });
}
