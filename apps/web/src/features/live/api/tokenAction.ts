import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TokenAction } from '@upnext/contract/tokens';
import { tokenEndpoints } from '@upnext/contract/tokens';
import { api } from '../../../lib/api-client.ts';
import { liveKeys } from './keys.ts';

/** `POST /queues/sessions/tokens/{tokenId}/{action}`: recall, no-show, start, complete, requeue. */
function actOnToken(tokenId: string, action: TokenAction) {
  return api.call(tokenEndpoints.actOnToken, { params: { tokenId, action } });
}

export function useTokenAction(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tokenId, action }: { tokenId: string; action: TokenAction }) =>
      actOnToken(tokenId, action),
    onSettled: () => queryClient.invalidateQueries({ queryKey: liveKeys.session(sessionId) }),
  });
}
