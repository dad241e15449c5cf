import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueueToken } from '@upnext/contract/tokens';
import { api } from '../../../lib/api-client.ts';
import { liveKeys } from './keys.ts';

interface CancelTokenInput {
  tokenId: string;
  reason?: string;
}

/** `POST /queues/sessions/tokens-cancel`: staff cancel a token (a booked slot frees up). */
function cancelToken(input: CancelTokenInput): Promise<QueueToken> {
  return api.post<QueueToken>('/queues/sessions/tokens-cancel', input);
}

export function useCancelToken(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelToken,
    onSettled: () => queryClient.invalidateQueries({ queryKey: liveKeys.session(sessionId) }),
  });
}
