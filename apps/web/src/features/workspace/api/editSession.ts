import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditSessionInput } from '@upnext/contract/sessions';
import { sessionEndpoints } from '@upnext/contract/sessions';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `POST /queues/sessions/edit`: this session, or this and the following ones of its series. */
function editSession(input: EditSessionInput) {
  return api.call(sessionEndpoints.editSessions, { body: input });
}

export function useEditSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.sessions() }),
  });
}
