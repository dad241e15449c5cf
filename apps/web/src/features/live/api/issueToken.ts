import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TakeTokenInput } from '@upnext/contract/tokens';
import { takeToken } from '../../../entities/token/api.ts';
import { liveKeys } from './keys.ts';

export function useIssueToken(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // Staff issue a walk-in token for a visitor at the desk.
    mutationFn: ({ input, idempotencyKey }: { input: TakeTokenInput; idempotencyKey: string }) =>
      takeToken(input, idempotencyKey),
    // The walk-in form shows its refusals in place (an invalid phone on its field).
    meta: { errorShownInline: true },
    onSettled: () => queryClient.invalidateQueries({ queryKey: liveKeys.session(sessionId) }),
  });
}
