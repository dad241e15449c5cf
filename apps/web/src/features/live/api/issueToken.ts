import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueueToken, TakeTokenInput } from '@upnext/contract/tokens';
import { api } from '../../../lib/api-client.ts';
import { liveKeys } from './keys.ts';

/** `POST /queues/sessions/tokens`: staff issue a walk-in token for a visitor at the desk. */
function issueToken(input: TakeTokenInput): Promise<QueueToken> {
  return api.post<QueueToken>('/queues/sessions/tokens', input);
}

export function useIssueToken(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: issueToken,
    // The walk-in form shows its refusals in place (an invalid phone on its field).
    meta: { errorShownInline: true },
    onSettled: () => queryClient.invalidateQueries({ queryKey: liveKeys.session(sessionId) }),
  });
}
