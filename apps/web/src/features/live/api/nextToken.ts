import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueueToken } from '@upnext/contract/tokens';
import { api } from '../../../lib/api-client.ts';
import { liveKeys } from './keys.ts';

export interface NextTokenResult {
  completed: QueueToken | null;
  called: QueueToken | null;
}

/** `POST /queues/sessions/next-token`: completes this staff member's token, calls the next. */
function callNextToken(sessionId: string): Promise<NextTokenResult> {
  return api.post<NextTokenResult>('/queues/sessions/next-token', { sessionId });
}

export function useCallNextToken(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callNextToken(sessionId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: liveKeys.session(sessionId) }),
  });
}
