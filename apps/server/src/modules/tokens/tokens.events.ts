import { secondsPerToken } from './tokens.estimates.ts';
import type { SessionContext, TokenRow } from './tokens.repository.ts';
import * as repo from './tokens.repository.ts';
import type { TokensDeps } from './tokens.service.ts';

/**
 * Realtime announcements, always after the transaction committed (PRODUCT.md, "Realtime"):
 * the public state of a session on its topic (no personal data), and each holder's own
 * events on their private user topic.
 */
export async function publishSessionState(deps: TokensDeps, sessionId: string) {
  const session = await repo.findSessionContext(deps.db, sessionId);
  if (!session) return;
  const counts = await repo.sessionCounts(deps.db, sessionId);
  deps.publisher.publish(`/topic/session/${sessionId}`, {
    type: 'session.state',
    sessionId,
    status: session.status,
    nowServing: await repo.nowServingToken(deps.db, sessionId),
    waiting: (counts.waiting ?? 0) + (counts.booked ?? 0),
    served: counts.served ?? 0,
    averageServiceSeconds: Math.round(await secondsPerToken(deps, session)),
  });
}

export async function publishToHolders(
  deps: TokensDeps,
  tokens: readonly TokenRow[],
  type: 'token.called' | 'token.cancelled',
) {
  const holders = tokens.filter((token) => token.userId !== null);
  const topics = await repo.subscribeIdsOf(
    deps.db,
    holders.map((token) => token.userId as string),
  );
  for (const token of holders) {
    const subscribeId = topics.get(token.userId as string);
    if (!subscribeId) continue;
    deps.publisher.publish(`/topic/user/${subscribeId}`, {
      type,
      tokenId: token.id,
      sessionId: token.sessionId,
      displayNumber: token.displayNumber,
      status: token.status,
    });
  }
}

/**
 * Every waiting holder learns their new position and estimated wait; the one who just
 * reached the queue's threshold also gets "turn approaching".
 */
export async function publishWaitingLine(deps: TokensDeps, session: SessionContext) {
  const line = await repo.waitingLine(deps.db, session.sessionId, deps.clock());
  const holders = line.filter((entry) => entry.userId !== null);
  if (holders.length === 0) return;
  const topics = await repo.subscribeIdsOf(deps.db, [
    ...new Set(holders.map((entry) => entry.userId as string)),
  ]);
  const perToken = await secondsPerToken(deps, session);
  line.forEach((entry, index) => {
    const subscribeId = entry.userId ? topics.get(entry.userId) : undefined;
    if (!subscribeId) return;
    const position = index + 1;
    const event = {
      tokenId: entry.id,
      sessionId: session.sessionId,
      position,
      estimatedWaitMinutes: Math.ceil((position * perToken) / 60),
    };
    deps.publisher.publish(`/topic/user/${subscribeId}`, { type: 'token.position', ...event });
    if (position === session.turnApproachingThreshold) {
      deps.publisher.publish(`/topic/user/${subscribeId}`, {
        type: 'token.turn_approaching',
        ...event,
      });
    }
  });
}
