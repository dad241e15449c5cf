import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueueToken } from '@upnext/contract/tokens';
import { api } from '../../../lib/api-client.ts';
import { visitKeys, visitPaths } from './keys.ts';

/** `POST /queues/sessions/tokens-cancel`: the holder gives up a token or booking. */
function cancelToken(input: { tokenId: string; reason?: string }): Promise<QueueToken> {
  return api.post<QueueToken>(visitPaths.cancelToken, input);
}

export function useCancelToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelToken,
    onSettled: () => queryClient.invalidateQueries({ queryKey: visitKeys.myTokens() }),
  });
}
