import { useMutation, useQueryClient } from '@tanstack/react-query';
import { paymentEndpoints } from '@upnext/contract/payments';
import { api } from '../../../lib/api-client.ts';
import { billingKeys } from './keys.ts';

/** `POST /payments/{paymentId}/refund`: in full by default, or `amountMinor` of it. */
function refundPayment(input: { paymentId: string; amountMinor?: number; reason?: string }) {
  const { paymentId, ...body } = input;
  return api.call(paymentEndpoints.refundPayment, { params: { paymentId }, body });
}

export function useRefundPayment(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundPayment,
    meta: { errorShownInline: true },
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.payments(companyId) }),
  });
}
