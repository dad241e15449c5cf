import { useQuery, useQueryClient } from '@tanstack/react-query';
import { endpoints } from '@upnext/contract/endpoints';
import type { Payment } from '@upnext/contract/payments';
import { api } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth-session.ts';
import { billingKeys } from './keys.ts';

/** `GET /payments/{paymentId}`: a plan payment's real outcome, as the company's owner sees it. */
function getPlanPayment(paymentId: string, signal?: AbortSignal) {
  return api.call(endpoints.getPayment, { params: { paymentId }, signal });
}

/**
 * While the webhook has not arrived (`pending`), asks again after 1, 2, 4, 8, 15, 15, ...
 * seconds, at most `maxPolls` times (about 2.5 minutes); then the page offers to check again
 * by hand. An object, so a test can shorten the waits.
 */
export const planPolling = {
  maxPolls: 12,
  delay(attempt: number): number {
    return Math.min(1000 * 2 ** attempt, 15_000);
  },
};

export function usePlanPayment(paymentId: string | null) {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const queryKey = billingKeys.payment(paymentId ?? '');
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => getPlanPayment(paymentId ?? '', signal),
    enabled: Boolean(paymentId && user),
    retry: false,
    meta: { errorShownInline: true },
    refetchInterval: (q) => {
      const data = q.state.data as Payment | undefined;
      const polls = q.state.dataUpdateCount - 1;
      if (data?.status !== 'pending' || polls >= planPolling.maxPolls) return false;
      return planPolling.delay(polls);
    },
  });
  const updates = queryClient.getQueryState(queryKey)?.dataUpdateCount ?? 0;
  /** False once the backoff gave up: the page then offers "Check again". */
  return { query, pollsLeft: updates <= planPolling.maxPolls };
}
