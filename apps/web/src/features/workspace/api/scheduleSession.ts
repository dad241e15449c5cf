import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ScheduleResult, ScheduleSessionInput } from '@upnext/contract/sessions';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';
import { sessionPaths } from './paths.ts';

/**
 * `POST /queues/sessions/schedule`: one session or a weekly series. With `preview: true`
 * nothing is saved and the answer lists what would be created and each conflict.
 */
export function scheduleSession(input: ScheduleSessionInput): Promise<ScheduleResult> {
  return api.post<ScheduleResult>(sessionPaths.schedule, input);
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
