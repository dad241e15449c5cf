import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteSessionInput } from '@upnext/contract/sessions';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';
import { sessionPaths } from './paths.ts';

/** `POST /queues/sessions/delete`: this session, or this and the following ones of its series. */
export function deleteSession(input: DeleteSessionInput): Promise<{ deletedIds: string[] }> {
  return api.post<{ deletedIds: string[] }>(sessionPaths.delete, input);
}

export function useDeleteSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.sessions() }),
  });
}
