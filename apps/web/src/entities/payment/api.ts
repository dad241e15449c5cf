import { type QueryKey, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Payment } from '@upnext/contract/payments';
import { paymentEndpoints } from '@upnext/contract/payments';
import { api } from '../../lib/api-client.ts';
import { useCurrentUser } from '../../lib/auth-session.ts';

/**
 * While a checkout is still `pending` (the provider's webhook has not arrived yet), its payment
 * is asked for again after 1, 2, 4, 8, 15, 15, ... seconds, at most `maxPolls` times (about 2.5
 * minutes); then the page offers to check again by hand. An object, so a test can shorten the
 * waits or turn the fallback off.
 */
export const pendingPaymentPolling = {
  maxPolls: 12,
  delay(attempt: number): number {
    return Math.min(1000 * 2 ** attempt, 15_000);
  },
};

/**
 * `GET /payments/{paymentId}`: a payment's real outcome (for its payer, or the company's
 * managers), under the caller feature's own query key, and whether the backoff still has polls
 * left (false: offer "Check again"). Both return pages (`/payment-success`,
 * `/admin/payment-success`) read it.
 */
export function usePaymentOutcome(paymentId: string | null, queryKey: QueryKey) {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) =>
      api.call(paymentEndpoints.getPayment, { params: { paymentId: paymentId ?? '' }, signal }),
    enabled: Boolean(paymentId && user),
    retry: false,
    meta: { errorShownInline: true },
    refetchInterval: (q) => {
      const data = q.state.data as Payment | undefined;
      const polls = q.state.dataUpdateCount - 1;
      if (data?.status !== 'pending' || polls >= pendingPaymentPolling.maxPolls) return false;
      return pendingPaymentPolling.delay(polls);
    },
  });
  const updates = queryClient.getQueryState(queryKey)?.dataUpdateCount ?? 0;
  return { query, pollsLeft: updates <= pendingPaymentPolling.maxPolls };
}
