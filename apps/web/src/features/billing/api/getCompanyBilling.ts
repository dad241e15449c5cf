import { useQuery } from '@tanstack/react-query';
import { billingEndpoints } from '@upnext/contract/billing';
import { api } from '../../../lib/api-client.ts';
import { billingKeys } from './keys.ts';

/** `GET /company/{companyId}/billing`: the plan, its state, its limits and this month's use. */
function getCompanyBilling(companyId: string, signal?: AbortSignal) {
  return api.call(billingEndpoints.getCompanyBilling, { params: { companyId }, signal });
}

export function useCompanyBilling(companyId: string) {
  return useQuery({
    queryKey: billingKeys.billing(companyId),
    queryFn: ({ signal }) => getCompanyBilling(companyId, signal),
  });
}
