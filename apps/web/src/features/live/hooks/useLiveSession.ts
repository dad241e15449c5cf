import { useQueryClient } from '@tanstack/react-query';
import { useTopic } from '../../../lib/stomp-client.ts';
import { liveKeys } from '../api/keys.ts';

/** Every event on the session's topic refreshes what the console shows (polling backs it up). */
export function useLiveSession(sessionId: string): void {
  const queryClient = useQueryClient();
  useTopic(sessionId ? `/topic/session/${sessionId}` : null, () => {
    void queryClient.invalidateQueries({ queryKey: liveKeys.session(sessionId) });
  });
}
