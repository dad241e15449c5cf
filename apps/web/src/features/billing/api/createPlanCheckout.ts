import { useMutation } from '@tanstack/react-query';
import type { PaidPlan } from '@upnext/contract/payments';
import { paymentEndpoints } from '@upnext/contract/payments';
import { api } from '../../../lib/api-client.ts';

/**
 * `POST /payment-gateway/payment` {plan, companyId}: open the plan's checkout (the owner). The
 * caller sends the browser to `checkoutUrl`; the outcome comes from the provider's webhook and
 * is shown on /admin/payment-success.
 */
function createPlanCheckout(input: { plan: PaidPlan; companyId: string }) {
  return api.call(paymentEndpoints.createPayment, { body: input });
}

export function useCreatePlanCheckout() {
  return useMutation({
    mutationFn: createPlanCheckout,
    // The Billing section shows its refusals in place.
    meta: { errorShownInline: true },
  });
}
