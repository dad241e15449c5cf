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
 * again after 1, 2, 4, 8, 15, 15, ... seconds, at most `PENDING_POLLS` times: the token's live
 * events usually settle it first (PaymentResult refetches on them), this is only the fallback.
 */
export const PENDING_POLLS = 12;
export function pendingPollDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 15_000);
}

function paymentQueryOptions(paymentId: string) {
  return queryOptions({
    queryKey: visitKeys.payment(paymentId),
    queryFn: ({ signal }) => getPayment(paymentId, signal),
    retry: false,
    meta: { errorShownInline: true },
    refetchInterval: (query) => {
      const data = query.state.data as Payment | undefined;
      const polls = query.state.dataUpdateCount - 1;
      if (data?.status !== 'pending' || polls >= PENDING_POLLS) return false;
      return pendingPollDelay(polls);
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
  return { query, pollsLeft: updates <= PENDING_POLLS };
}
