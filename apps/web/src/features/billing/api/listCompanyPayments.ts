import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ListPaymentsQuery } from '@upnext/contract/payments';
import { paymentEndpoints } from '@upnext/contract/payments';
import { api } from '../../../lib/api-client.ts';
import { billingKeys } from './keys.ts';

export type PaymentFilters = Partial<ListPaymentsQuery>;

/** `GET /company/{companyId}/payments`: newest first, filtered and paginated. */
export function listCompanyPayments(
  companyId: string,
  query: PaymentFilters,
  signal?: AbortSignal,
) {
  return api.call(paymentEndpoints.listCompanyPayments, { params: { companyId }, query, signal });
}

export function useCompanyPayments(companyId: string, query: PaymentFilters) {
  return useQuery({
    queryKey: billingKeys.paymentPage(companyId, query),
    queryFn: ({ signal }) => listCompanyPayments(companyId, query, signal),
    placeholderData: keepPreviousData,
  });
}
