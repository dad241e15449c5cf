import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cancelToken } from '../../../entities/token/api.ts';
import { liveKeys } from './keys.ts';

export function useCancelToken(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelToken,
    onSettled: () => queryClient.invalidateQueries({ queryKey: liveKeys.session(sessionId) }),
  });
}
