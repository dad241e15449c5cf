import { topics } from '@upnext/contract/realtime-topics';
import { useSessionBoard } from '../../../entities/session/board.ts';
import { useLiveTopic } from '../../../lib/realtime-cache.ts';
import { publicRealtime } from '../../../lib/stomp-client.ts';

/**
 * The board's session, live over an anonymous connection (a waiting room's screen is signed in
 * to nobody): events update it at once; it polls only while that connection is down.
 */
export function useLiveBoard(sessionId: string) {
  useLiveTopic(sessionId ? topics.session(sessionId) : null, publicRealtime);
  return useSessionBoard(sessionId, { connection: publicRealtime, errorShownInline: true });
}
