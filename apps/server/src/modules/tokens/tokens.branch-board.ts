import { QUEUE_BOARD_MAX_SESSIONS, type QueueBoard } from '@upnext/contract/tokens';
import { notFoundError } from '../access/access.ts';
import type { Caller } from '../access/caller.ts';
import type { BoardCache, CachedBoard } from './tokens.board.ts';
import { authorizeQueueBoard, boardsShown } from './tokens.policy.ts';
import * as repo from './tokens.repository.ts';
import { cachedBoard, type TokensDeps } from './tokens.service.ts';

/**
 * A branch board (`GET /queues/{queueId}/board`): every session of the queue today that is
 * not over, each its session board from the shared cache (so a wall of screens costs what one
 * does), shown to whoever may see the queue and each session. Sessions live on their topics.
 */
export async function queueBoard(
  deps: TokensDeps,
  boards: BoardCache,
  caller: Caller,
  queueId: string,
): Promise<QueueBoard> {
  const queue = await repo.findQueueBoardContext(deps.db, queueId);
  if (!queue) throw notFoundError.queue();
  await authorizeQueueBoard(deps.db, caller, queue);
  const ids = await repo.todaysSessionIds(deps.db, queueId, deps.clock(), QUEUE_BOARD_MAX_SESSIONS);
  const read = await Promise.all(ids.map((id) => cachedBoard(deps, boards, id)));
  const shown = await boardsShown(
    deps.db,
    caller,
    read.filter((entry): entry is CachedBoard => entry !== undefined),
  );
  return {
    queueId,
    queueName: queue.queueName,
    companyName: queue.companyName,
    joinCode: queue.joinCode,
    sessions: shown.map((entry) => entry.board),
  };
}
