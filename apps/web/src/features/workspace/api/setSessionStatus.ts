import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Session, SessionStatusInput } from '@upnext/contract/sessions';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';
import { sessionPaths } from './paths.ts';

/** `POST /queues/sessions/status`: open, pause, close or cancel by the state rules. */
export function setSessionStatus(input: SessionStatusInput): Promise<Session> {
  return api.post<Session>(sessionPaths.status, input);
}

export function useSetSessionStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setSessionStatus,
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.sessions() }),
  });
}
