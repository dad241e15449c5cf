import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SandboxPayInput } from '@upnext/contract/payments';
import { paymentEndpoints } from '@upnext/contract/payments';
import { api } from '../../../lib/api-client.ts';
import { checkoutKeys } from './keys.ts';

/** `POST .../checkouts/{checkoutId}/pay`: paid, failed (declined) or requires_confirmation. */
function paySandboxCheckout({ checkoutId, ...card }: SandboxPayInput & { checkoutId: string }) {
  return api.call(paymentEndpoints.paySandboxCheckout, { params: { checkoutId }, body: card });
}

export function usePaySandboxCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: paySandboxCheckout,
    meta: { errorShownInline: true },
    onSuccess: (checkout) =>
      queryClient.setQueryData(checkoutKeys.sandbox(checkout.checkoutId), checkout),
  });
}
