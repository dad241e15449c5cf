import { useMutation } from '@tanstack/react-query';
import { paymentEndpoints } from '@upnext/contract/payments';
import { api } from '../../../lib/api-client.ts';

/** `POST .../checkouts/{checkoutId}/cancel`: the payer leaves without paying (the hold is released). */
function cancelSandboxCheckout(checkoutId: string) {
  return api.call(paymentEndpoints.cancelSandboxCheckout, { params: { checkoutId } });
}

export function useCancelSandboxCheckout() {
  return useMutation({ mutationFn: cancelSandboxCheckout, meta: { errorShownInline: true } });
}
