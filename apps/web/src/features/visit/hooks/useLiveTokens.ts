import type { QueryClient } from '@tanstack/react-query';
import { sessionStateEvent, type UserEvent, userEvent } from '@upnext/contract/realtime';
import { topics } from '@upnext/contract/realtime-topics';
import type { QueueToken, TokenStatus } from '@upnext/contract/tokens';
import { useUserData } from '../../../entities/user/api.ts';
import { registerRealtime, updateLiveQuery, useLiveTopics } from '../../../lib/realtime-cache.ts';
import { visitKeys } from '../api/keys.ts';
import { useMyTokens } from '../api/myTokens.ts';

/** Tokens still in their session's line, the most pressing first. */
export const liveStatuses: readonly TokenStatus[] = [
  'called',
  'serving',
  'waiting',
  'booked',
  'pending_payment',
];

/** Whether the state of the token's session concerns its holder (live, or cancelled with it). */
export function followsSession(token: QueueToken): boolean {
  return liveStatuses.includes(token.status) || token.cancelReason === 'session_cancelled';
}

/** One of the visitor's tokens after an event of their own topic. */
function applyUserEvent(token: QueueToken, event: UserEvent): QueueToken {
  switch (event.type) {
    case 'token.position_changed':
    case 'token.turn_approaching':
      return {
        ...token,
        position: event.position,
        estimatedWaitMinutes:
          event.estimatedWaitSeconds === null ? null : Math.ceil(event.estimatedWaitSeconds / 60),
      };
    case 'token.called':
      return { ...token, status: 'called', calledAt: event.at, position: null };
    case 'token.cancelled':
      return {
        ...token,
        status: event.reason === 'no_show' ? 'no_show' : 'cancelled',
        cancelledAt: event.at,
        cancelReason: event.reason === 'session_cancelled' ? event.reason : token.cancelReason,
        position: null,
        estimatedWaitMinutes: null,
      };
    case 'token.rescheduled':
      // Its number and session may have changed too: the refetch that follows brings them.
      return { ...token, slotStartsAt: event.slotStartsAt };
  }
}

const refetchMine = (queryClient: QueryClient) =>
  void queryClient.invalidateQueries({ queryKey: visitKeys.myTokens() });

registerRealtime('/topic/user/:subscribeId', {
  apply(body, queryClient) {
    const parsed = userEvent.safeParse(body);

    if (!parsed.success) return;
    const event = parsed.data;
    updateLiveQuery<QueueToken[]>(queryClient, visitKeys.myTokens(), (tokens) =>
      tokens?.map((token) => (token.id === event.tokenId ? applyUserEvent(token, event) : token)),
    );
    if (event.type === 'token.rescheduled') refetchMine(queryClient);
  },
  resync: refetchMine,
});

// A session's public events carry its status and notes for visitors, applied to the tokens
// in it at once; they do not name tokens, so one may concern the visitor's (served, started,
// moved by staff), and the tokens are refetched too.
registerRealtime('/topic/session/:sessionId', {
  apply(body, queryClient, { sessionId }) {
    const mine = queryClient.getQueryData<QueueToken[]>(visitKeys.myTokens());
    if (!mine?.some((token) => token.sessionId === sessionId)) return;
    const parsed = sessionStateEvent.safeParse(body);
    if (parsed.success) {
      const { status, notes } = parsed.data;
      queryClient.setQueryData<QueueToken[]>(visitKeys.myTokens(), (tokens) =>
        tokens?.map((token) =>
          token.sessionId === sessionId
            ? { ...token, sessionStatus: status, sessionNotes: notes }
            : token,
        ),
      );
    }
    refetchMine(queryClient);
  },
  resync: () => {},
});

/**
 * The signed-in visitor's tokens, kept live: their own topic (`/topic/user/{subscribeId}`),
 * their meeting topic (calls ringing about a token) and the topics of the sessions their
 * tokens follow; polled only while realtime is down.
 */
export function useLiveTokens(enabled = true) {
  const userData = useUserData();
  const tokens = useMyTokens(enabled);
  const subscribeId = userData.data?.subscribeId;
  const sessions = (tokens.data ?? [])
    .filter(followsSession)
    .map((token) => topics.session(token.sessionId));
  // The meeting topic too: a call ringing about a token shows on it (components/CallWaiting.tsx).
  useLiveTopics(
    enabled && subscribeId
      ? [topics.user(subscribeId), topics.meeting(subscribeId), ...sessions]
      : [],
  );
  return { tokens, userData };
}
