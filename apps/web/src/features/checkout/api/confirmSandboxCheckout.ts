import { useMutation, useQueryClient } from '@tanstack/react-query';
import { paymentEndpoints } from '@upnext/contract/payments';
import { api } from '../../../lib/api-client.ts';
import { checkoutKeys } from './keys.ts';

interface ConfirmInput {
  checkoutId: string;
  confirmationToken: string;
  approve: boolean;
}

/** `POST .../checkouts/{checkoutId}/confirm`: the extra step's answer (approve pays, refuse fails). */
function confirmSandboxCheckout({ checkoutId, ...body }: ConfirmInput) {
  return api.call(paymentEndpoints.confirmSandboxCheckout, { params: { checkoutId }, body });
}

export function useConfirmSandboxCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmSandboxCheckout,
    meta: { errorShownInline: true },
    onSuccess: (checkout) =>
      queryClient.setQueryData(checkoutKeys.sandbox(checkout.checkoutId), checkout),
  });
}
