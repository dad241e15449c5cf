import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Meeting } from '@upnext/contract/meetings';
import { meetingEndpoints } from '@upnext/contract/meetings';
import { api } from '../../../lib/api-client.ts';

export const meetingKeys = {
  all: ['meetings'] as const,
  detail: (meetingId: string) => [...meetingKeys.all, 'detail', meetingId] as const,
};

/** `GET /meetings/{meetingId}`: for its two parties only (anyone else: `meeting_not_found`). */
function meetingQueryOptions(meetingId: string) {
  return queryOptions({
    queryKey: meetingKeys.detail(meetingId),
    queryFn: ({ signal }) =>
      api.call(meetingEndpoints.getMeeting, { params: { meetingId }, signal }),
    // A refusal is an answer, not a hiccup: say it at once. The screen shows it in place.
    retry: false,
    meta: { errorShownInline: true },
  });
}

export function useMeeting(meetingId: string | null) {
  return useQuery({ ...meetingQueryOptions(meetingId ?? ''), enabled: Boolean(meetingId) });
}

/** `GET /meetings/{meetingId}/ice-servers`: STUN, and TURN with the caller's own credential. */
export async function fetchIceServers(meetingId: string): Promise<RTCIceServer[]> {
  const { iceServers } = await api.call(meetingEndpoints.getIceServers, { params: { meetingId } });
  return iceServers;
}

/** `POST /meetings/{meetingId}/end`: hanging up when the exit message cannot be sent. */
export function endMeeting(meetingId: string): Promise<Meeting> {
  return api.call(meetingEndpoints.endMeeting, { params: { meetingId } });
}
