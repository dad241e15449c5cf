import { useQuery } from '@tanstack/react-query';
import { meetingEndpoints } from '@upnext/contract/meetings';
import { api } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth-session.ts';
import { registerRealtime, useLiveRefetchInterval } from '../../../lib/realtime-cache.ts';
import { visitKeys } from './keys.ts';

/** `GET /meetings?mine=true&state=ringing`: calls ringing for the visitor right now. */
function getRingingCalls(signal?: AbortSignal) {
  return api.call(meetingEndpoints.listMeetings, {
    query: { mine: 'true', state: 'ringing' },
    signal,
  });
}

// Every change of a meeting (rung, answered, declined, missed, ended) comes on the user's
// meeting topic, which `useLiveTokens` listens to: the list is fetched again.
registerRealtime('/topic/meeting/:subscribeId', {
  apply(body, queryClient) {
    if (
      typeof body === 'object' &&
      body !== null &&
      (body as { type?: unknown }).type === 'meeting.state'
    ) {
      void queryClient.invalidateQueries({ queryKey: visitKeys.ringingCalls() });
    }
  },
  resync(queryClient) {
    void queryClient.invalidateQueries({ queryKey: visitKeys.ringingCalls() });
  },
});

/** The calls ringing for the signed-in user as the visitor (not those they make as staff). */
export function useRingingCalls() {
  const user = useCurrentUser();
  const refetchInterval = useLiveRefetchInterval();
  return useQuery({
    queryKey: visitKeys.ringingCalls(),
    queryFn: ({ signal }) => getRingingCalls(signal),
    enabled: Boolean(user),
    refetchInterval,
    select: (meetings) => meetings.filter((meeting) => meeting.role === 'visitor'),
    meta: { errorShownInline: true },
  });
}
