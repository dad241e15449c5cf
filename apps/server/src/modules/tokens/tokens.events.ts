import type { SessionEvent, UserEvent } from '@upnext/contract/realtime';
import { topics } from '@upnext/contract/realtime-topics';
import { type LiveLine, sessionFigures } from './tokens.line.ts';
import type { SessionContext, TokenRow } from './tokens.repository.ts';
import * as repo from './tokens.repository.ts';
import type { TokensDeps } from './tokens.service.ts';

/**
 * Realtime announcements, always after the transaction committed (PRODUCT.md, "Realtime"),
 * in the shapes of `packages/contract/src/realtime.ts`: the public state of a session on its
 * topic (no personal data), and each holder's own events on their private user topic.
 */
function publishSessionState(
  deps: TokensDeps,
  line: Pick<LiveLine, 'session' | 'at' | 'counts' | 'secondsPerToken' | 'lastCalled'>,
  placesMoved = true,
) {
  const { session } = line;
  const [current] = line.lastCalled;
  const event: Extract<SessionEvent, { type: 'session.state' }> = {
    type: 'session.state',
    sessionId: session.sessionId,
    status: session.status,
    notes: session.visitorNotes,
    nowServing: current ? { number: current.number, label: current.displayNumber } : null,
    waitingCount: line.counts.waiting,
    averageServiceSeconds: Math.round(line.secondsPerToken),
    ...(placesMoved ? {} : { placesMoved }),
    at: line.at.toISOString(),
  };
  deps.publisher.publish(topics.session(session.sessionId), event);
}

/** The board's call-out: a token was called (or recalled) to the session's counter. */
export async function publishNowServing(
  deps: TokensDeps,
  session: SessionContext,
  token: TokenRow,
  recall: boolean,
) {
  const event: Extract<SessionEvent, { type: 'session.now_serving' }> = {
    type: 'session.now_serving',
    sessionId: session.sessionId,
    number: token.number,
    label: token.displayNumber,
    serviceArea: session.subQueueName,
    recall,
    at: deps.clock().toISOString(),
  };
  deps.publisher.publish(topics.session(session.sessionId), event);
}

const cancelReasons: Record<string, Extract<UserEvent, { type: 'token.cancelled' }>['reason']> = {
  cancelled_by_visitor: 'visitor',
  session_cancelled: 'session_cancelled',
  // A payment hold released: not paid in time, declined, or left at the checkout.
  payment_expired: 'payment',
  payment_failed: 'payment',
  payment_cancelled: 'payment',
};

/** "Your turn" to the holder of a called (or recalled) token, when they have an account. */
export async function publishCalled(deps: TokensDeps, session: SessionContext, token: TokenRow) {
  if (!token.userId) return;
  const subscribeId = (await repo.subscribeIdsOf(deps.db, [token.userId])).get(token.userId);
  if (!subscribeId) return;
  const event: UserEvent = {
    type: 'token.called',
    tokenId: token.id,
    sessionId: token.sessionId,
    label: token.displayNumber,
    serviceArea: session.subQueueName,
    at: deps.clock().toISOString(),
  };
  deps.publisher.publish(topics.user(subscribeId), event);
}

/** "Cancelled" to each holder with an account, with why. */
export async function publishCancelled(deps: TokensDeps, tokens: readonly TokenRow[]) {
  const holders = tokens.filter((token) => token.userId !== null);
  if (holders.length === 0) return;
  const subscribers = await repo.subscribeIdsOf(
    deps.db,
    holders.map((token) => token.userId as string),
  );
  const at = deps.clock().toISOString();
  for (const token of holders) {
    const subscribeId = subscribers.get(token.userId as string);
    if (!subscribeId) continue;
    const event: UserEvent = {
      type: 'token.cancelled',
      tokenId: token.id,
      sessionId: token.sessionId,
      label: token.displayNumber,
      reason: cancelReasons[token.cancelReason ?? ''] ?? 'staff',
      at,
    };
    deps.publisher.publish(topics.user(subscribeId), event);
  }
}

/**
 * Every holder in the line learns their new position and estimated wait; the one at the
 * queue's threshold also gets "turn approaching".
 */
async function publishWaitingLine(deps: TokensDeps, line: LiveLine) {
  const holders = line.entries.filter((entry) => entry.userId !== null);
  if (holders.length === 0) return;
  const subscribers = await repo.subscribeIdsOf(deps.db, [
    ...new Set(holders.map((entry) => entry.userId as string)),
  ]);
  const at = line.at.toISOString();
  for (const entry of holders) {
    const subscribeId = subscribers.get(entry.userId as string);
    if (!subscribeId) continue;
    const common = {
      tokenId: entry.id,
      sessionId: line.session.sessionId,
      label: entry.displayNumber,
      position: entry.position,
      estimatedWaitSeconds: entry.estimatedWaitSeconds,
      at,
    };
    const moved: UserEvent = { type: 'token.position_changed', ...common };
    deps.publisher.publish(topics.user(subscribeId), moved);
    if (entry.position === line.session.turnApproachingThreshold) {
      const approaching: UserEvent = { type: 'token.turn_approaching', ...common };
      deps.publisher.publish(topics.user(subscribeId), approaching);
    }
  }
}

/** For the sessions module: a session's new status (or notes) on its topic. */
export async function publishSessionChange(deps: TokensDeps, sessionId: string) {
  const session = await repo.findSessionContext(deps.db, sessionId);
  if (session) publishSessionState(deps, await sessionFigures(deps.db, session, deps.clock()));
}

/**
 * After a change: the session topic and the holders' positions, from one computed line.
 * `placesMoved: false` when the change only appended a token at the end of the line.
 */
export async function publishLive(deps: TokensDeps, line: LiveLine, placesMoved = true) {
  publishSessionState(deps, line, placesMoved);
  await publishWaitingLine(deps, line);
}
