import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteSessionInput } from '@upnext/contract/sessions';
import { sessionEndpoints } from '@upnext/contract/sessions';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `POST /queues/sessions/delete`: this session, or this and the following ones of its series. */
function deleteSession(input: DeleteSessionInput) {
  return api.call(sessionEndpoints.deleteSessions, { body: input });
}

export function useDeleteSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.sessions() }),
  });
}
