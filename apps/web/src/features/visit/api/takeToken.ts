import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueueToken, TakeTokenInput } from '@upnext/contract/tokens';
import { api } from '../../../lib/api-client.ts';
import { visitKeys, visitPaths } from './keys.ts';

/** `POST /queues/sessions/tokens`: take a walk-in token in a session. */
export function takeToken(input: TakeTokenInput): Promise<QueueToken> {
  return api.post<QueueToken>(visitPaths.takeToken, input);
}

export function useTakeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: takeToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: visitKeys.myTokens() }),
  });
}
