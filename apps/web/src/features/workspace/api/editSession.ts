import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditSessionInput, Session } from '@upnext/contract/sessions';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';
import { sessionPaths } from './paths.ts';

/** `POST /queues/sessions/edit`: this session, or this and the following ones of its series. */
export function editSession(input: EditSessionInput): Promise<{ sessions: Session[] }> {
  return api.post<{ sessions: Session[] }>(sessionPaths.edit, input);
}

export function useEditSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.sessions() }),
  });
}
