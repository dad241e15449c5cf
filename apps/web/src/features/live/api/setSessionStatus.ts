import { useMutation, useQueryClient } from '@tanstack/react-query';
import { setSessionStatus } from '../../../entities/session/api.ts';
import { sessionBoardKey } from '../../../entities/session/board.ts';
import { liveKeys } from './keys.ts';

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
