import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TakeTokenInput } from '@upnext/contract/tokens';
import { takeToken } from '../../../entities/token/api.ts';
import { visitKeys } from './keys.ts';

interface TakeTokenAttempt extends TakeTokenInput {
  /** One per click: a repeated request of the same attempt gets the same token back. */
  idempotencyKey: string;
}

/** `POST /queues/sessions/tokens`: take a walk-in token in a session. */
function takeTokenOnce({ idempotencyKey, ...input }: TakeTokenAttempt) {
  return takeToken(input, idempotencyKey);
}

export function useTakeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: takeTokenOnce,
    // The join page shows its refusals in place (visitError.ts).
    meta: { errorShownInline: true },
    onSettled: () => queryClient.invalidateQueries({ queryKey: visitKeys.myTokens() }),
  });
}
