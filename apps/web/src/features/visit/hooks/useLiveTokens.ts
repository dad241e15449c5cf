import { useQueryClient } from '@tanstack/react-query';
import { topics } from '@upnext/contract/realtime-topics';
import { useTopic } from '../../../lib/stomp-client.ts';
import { visitKeys } from '../api/keys.ts';
import { useMyTokens } from '../api/myTokens.ts';
import { useVisitorData } from '../api/userData.ts';

/**
 * The signed-in visitor's tokens, kept live: polled every 5 s, and refetched at once when an
 * event arrives on `/topic/user/{subscribeId}` (called, position changed, cancelled...).
 */
export function useLiveTokens(enabled = true) {
  const queryClient = useQueryClient();
  const userData = useVisitorData();
  const subscribeId = userData.data?.subscribeId;
  useTopic(enabled && subscribeId ? topics.user(subscribeId) : null, () => {
    void queryClient.invalidateQueries({ queryKey: visitKeys.myTokens() });
  });
  return { tokens: useMyTokens(enabled), userData };
}
