import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cancelToken } from '../../../entities/token/api.ts';
import { visitKeys } from './keys.ts';

export function useCancelToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelToken,
    onSettled: () => queryClient.invalidateQueries({ queryKey: visitKeys.myTokens() }),
  });
}
