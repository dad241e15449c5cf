import { queryOptions, useQuery } from '@tanstack/react-query';
import { paymentEndpoints } from '@upnext/contract/payments';
import { api } from '../../../lib/api-client.ts';
import { checkoutKeys } from './keys.ts';

/** `GET /payment-gateway/sandbox/checkouts/{checkoutId}`: what is paid and where it stands. */
function getSandboxCheckout(checkoutId: string, signal?: AbortSignal) {
  return api.call(paymentEndpoints.getSandboxCheckout, { params: { checkoutId }, signal });
}

function sandboxCheckoutQueryOptions(checkoutId: string) {
  return queryOptions({
    queryKey: checkoutKeys.sandbox(checkoutId),
    queryFn: ({ signal }) => getSandboxCheckout(checkoutId, signal),
    retry: false,
    // The page answers its own states; it never refetches behind the payer's back.
    refetchOnWindowFocus: false,
    meta: { errorShownInline: true },
  });
}

export function useSandboxCheckout(checkoutId: string) {
  return useQuery(sandboxCheckoutQueryOptions(checkoutId));
}
