import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { endpoints } from '@upnext/contract/endpoints';
import type { Payment } from '@upnext/contract/payments';
import { api } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth-session.ts';
import { visitKeys } from './keys.ts';

/** `GET /payments/{paymentId}`: the payment's real outcome, as its payer sees it. */
function getPayment(paymentId: string, signal?: AbortSignal) {
  return api.call(endpoints.getPayment, { params: { paymentId }, signal });
}

/**
 * While the checkout is still `pending` (the provider's webhook has not arrived yet), asks
 * again after 1, 2, 4, 8, 15, 15, ... seconds, at most `maxPolls` times (about 2.5 minutes):
 * the token's live events usually settle it first (PaymentResult refetches on them), this is
 * only the fallback. An object, so a test can turn the fallback off and see the events work.
 */
export const pendingPolling = {
  maxPolls: 12,
  delay(attempt: number): number {
    return Math.min(1000 * 2 ** attempt, 15_000);
  },
};

function paymentQueryOptions(paymentId: string) {
  return queryOptions({
    queryKey: visitKeys.payment(paymentId),
    queryFn: ({ signal }) => getPayment(paymentId, signal),
    retry: false,
    meta: { errorShownInline: true },
    refetchInterval: (query) => {
      const data = query.state.data as Payment | undefined;
      const polls = query.state.dataUpdateCount - 1;
      if (data?.status !== 'pending' || polls >= pendingPolling.maxPolls) return false;
      return pendingPolling.delay(polls);
    },
  });
}

/** The payment, and whether the backoff still has polls left (false: offer "Check again"). */
export function usePayment(paymentId: string | null) {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const options = paymentQueryOptions(paymentId ?? '');
  const query = useQuery({ ...options, enabled: Boolean(paymentId && user) });
  const updates = queryClient.getQueryState(options.queryKey)?.dataUpdateCount ?? 0;
  return { query, pollsLeft: updates <= pendingPolling.maxPolls };
}
