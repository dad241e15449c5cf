import { topics } from '@upnext/contract/realtime-topics';
import { registerRealtime, useLiveTopic } from '../../../lib/realtime-cache.ts';
import { liveKeys } from '../api/keys.ts';

// The session's public events carry no personal data, so they cannot rebuild the staff's
// token lists: each one is a ping to refetch what the console shows of that session.
const refetchSession: Parameters<typeof registerRealtime>[1] = {
  apply: (_event, queryClient, { sessionId = '' }) =>
    void queryClient.invalidateQueries({ queryKey: liveKeys.session(sessionId) }),
  resync: (queryClient, { sessionId = '' }) =>
    void queryClient.invalidateQueries({ queryKey: liveKeys.session(sessionId) }),
};
registerRealtime('/topic/session/:sessionId', refetchSession);

/** Keeps the console's queries of the session (and its board) live over the session topic. */
export function useLiveSession(sessionId: string): void {
  useLiveTopic(sessionId ? topics.session(sessionId) : null);
}
