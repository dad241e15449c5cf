import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Session, SessionStatusInput } from '@upnext/contract/sessions';
import { sessionBoardKey } from '../../../entities/session/board.ts';
import { api } from '../../../lib/api-client.ts';
import { liveKeys } from './keys.ts';

/** `POST /queues/sessions/status`: open, pause or close the session from the console. */
export function setSessionStatus(input: SessionStatusInput): Promise<Session> {
  return api.post<Session>('/queues/sessions/status', input);
}

export function useSetSessionStatus(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setSessionStatus,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: liveKeys.session(sessionId) }),
        queryClient.invalidateQueries({ queryKey: sessionBoardKey(sessionId) }),
      ]),
  });
}
