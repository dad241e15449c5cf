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

/** A random UUID (v4), also where `crypto.randomUUID` is missing (plain-HTTP origins). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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
