import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BookSlotInput } from '@upnext/contract/tokens';
import { tokenEndpoints } from '@upnext/contract/tokens';
import { api } from '../../../lib/api-client.ts';
import { visitKeys } from './keys.ts';

/** `POST /queues/sessions/slots/tokens`: book a time slot of a session service. */
function bookSlot(input: BookSlotInput) {
  return api.call(tokenEndpoints.bookSlot, { body: input });
}

export function useBookSlot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bookSlot,
    meta: { errorShownInline: true },
    onSettled: (_data, _error, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: visitKeys.myTokens() }),
        queryClient.invalidateQueries({ queryKey: visitKeys.slots(input.serviceId) }),
      ]),
  });
}
