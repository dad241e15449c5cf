import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tokenEndpoints } from '@upnext/contract/tokens';
import { api } from '../../../lib/api-client.ts';
import { liveKeys } from './keys.ts';

/** `POST /queues/sessions/next-token`: completes this staff member's token, calls the next. */
function callNextToken(sessionId: string) {
  return api.call(tokenEndpoints.nextToken, { body: { sessionId } });
}

export function useCallNextToken(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callNextToken(sessionId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: liveKeys.session(sessionId) }),
  });
}
