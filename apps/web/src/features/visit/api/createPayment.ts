import { useMutation } from '@tanstack/react-query';
import { paymentEndpoints } from '@upnext/contract/payments';
import { api } from '../../../lib/api-client.ts';

/**
 * `POST /payment-gateway/payment` {tokenId, promotionCode?}: open the checkout for a
 * `pending_payment` token (asking again answers the open one). The caller sends the browser to
 * the answer's `checkoutUrl`; the outcome comes from the provider's webhook, never from here.
 */
function createPayment(input: { tokenId: string; promotionCode?: string }) {
  return api.call(paymentEndpoints.createPayment, { body: input });
}

export function useCreatePayment() {
  return useMutation({
    mutationFn: createPayment,
    // The pay panel shows its refusals in place (promotion unknown, payments unavailable, ...).
    meta: { errorShownInline: true },
  });
}
