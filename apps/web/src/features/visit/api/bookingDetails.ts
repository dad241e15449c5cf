import { queryOptions, useQuery } from '@tanstack/react-query';
import { tokenEndpoints } from '@upnext/contract/tokens';
import { api } from '../../../lib/api-client.ts';
import { visitKeys } from './keys.ts';

/** `GET /queues/sessions/slots/booking-details?tokenId=`: when and where a booking is. */
function getBookingDetails(tokenId: string, signal?: AbortSignal) {
  return api.call(tokenEndpoints.bookingDetails, { query: { tokenId }, signal });
}

function bookingDetailsQueryOptions(tokenId: string) {
  return queryOptions({
    queryKey: visitKeys.booking(tokenId),
    queryFn: ({ signal }) => getBookingDetails(tokenId, signal),
  });
}

export function useBookingDetails(tokenId: string, enabled: boolean) {
  return useQuery({ ...bookingDetailsQueryOptions(tokenId), enabled });
}

/**
 * The booking as an iCalendar file. The `format=ics` answer needs the bearer token, so it is
 * fetched through the API client (JSON details, whose `calendar` is the same event) and saved
 * as a Blob rather than linked directly.
 */
export async function downloadBookingCalendar(tokenId: string): Promise<void> {
  const details = await getBookingDetails(tokenId);
  const blob = new Blob([details.calendar], { type: 'text/calendar;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `booking-${details.token.displayNumber}.ics`;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
