import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lightPaths } from '@upnext/contract/light-paths';
import type { tokenEndpoints } from '@upnext/contract/tokens';
import { seedSessionBoards } from '../../../entities/session/board.ts';
import { api } from '../../../lib/api-client.ts';

/** New sessions of the day (and those that closed) show within this long. */
const SESSIONS_REFRESH_MS = 60_000;

/**
 * A branch board's sessions (`GET /queues/{queueId}/board`). Each session's board goes into
 * its own cache entry, which its topic keeps live; the list itself is read again each minute.
 */
export function useQueueBoard(queueId: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['queue-board', queueId],
    queryFn: async ({ signal }) => {
      const board = await api.callAt<typeof tokenEndpoints.queueBoard>(
        { method: 'GET', path: lightPaths.queueBoard },
        { params: { queueId }, signal },
      );
      seedSessionBoards(queryClient, board.sessions);
      return board;
    },
    enabled: Boolean(queueId),
    refetchInterval: SESSIONS_REFRESH_MS,
    meta: { errorShownInline: true },
  });
}
