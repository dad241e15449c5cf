import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type RescheduleInput, tokenEndpoints } from '@upnext/contract/tokens';
import { api } from '../../../lib/api-client.ts';
import { visitKeys } from './keys.ts';

/** `POST /queues/sessions/slots/tokens-reschedule`: move a booking to another free slot. */
function rescheduleBooking(input: RescheduleInput) {
  return api.call(tokenEndpoints.rescheduleBooking, { body: input });
}

export function useRescheduleBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rescheduleBooking,
    meta: { errorShownInline: true },
    onSettled: (token, _error, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: visitKeys.myTokens() }),
        queryClient.invalidateQueries({ queryKey: visitKeys.slots(input.serviceId) }),
        token ? queryClient.invalidateQueries({ queryKey: visitKeys.booking(token.id) }) : null,
      ]),
  });
}
