import { useMutation, useQueryClient } from '@tanstack/react-query';
import { setSessionStatus } from '../../../entities/session/api.ts';
import { workspaceKeys } from './keys.ts';

export function useSetSessionStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setSessionStatus,
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.sessions() }),
  });
}
