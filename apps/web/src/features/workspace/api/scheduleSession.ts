import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ScheduleSessionInput } from '@upnext/contract/sessions';
import { sessionEndpoints } from '@upnext/contract/sessions';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/**
 * `POST /queues/sessions/schedule`: one session or a weekly series. With `preview: true`
 * nothing is saved and the answer lists what would be created and each conflict.
 */
function scheduleSession(input: ScheduleSessionInput) {
  return api.call(sessionEndpoints.scheduleSessions, { body: input });
}

export function usePreviewSchedule() {
  return useMutation({
    mutationFn: (input: ScheduleSessionInput) => scheduleSession({ ...input, preview: true }),
  });
}

export function useScheduleSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ScheduleSessionInput) => scheduleSession({ ...input, preview: false }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.sessions() }),
  });
}
