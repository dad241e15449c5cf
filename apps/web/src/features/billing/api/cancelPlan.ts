import { useMutation, useQueryClient } from '@tanstack/react-query';
import { paymentEndpoints } from '@upnext/contract/payments';
import { api } from '../../../lib/api-client.ts';
import { billingKeys } from './keys.ts';

/** `POST /company/{companyId}/billing/cancel`: the plan stays until its period ends, then Free. */
function cancelPlan(companyId: string) {
  return api.call(paymentEndpoints.cancelPlan, { params: { companyId } });
}

export function useCancelPlan(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => cancelPlan(companyId),
    meta: { errorShownInline: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.billing(companyId) }),
  });
}
