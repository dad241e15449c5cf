import type { Db, Tx } from '../../db/client.ts';
import type { Ties } from '../access/access.repository.ts';
import {
  type Action,
  allowedAmong,
  assertMay,
  authorize,
  may,
  type QueueFacts,
  type Standing,
  standingGiven,
  standingOf,
} from '../access/access.ts';
import type { Caller } from '../access/caller.ts';
import type { SessionContext, TokenRow } from './tokens.repository.ts';

type Queryable = Db | Tx;

/**
 * Tokens ask the access module (modules/access/access.ts) with the session's facts: who runs
 * the session (call next, recall, no-show, start, complete, requeue, walk-ins, cancelling
 * others' tokens), who reads all of its tokens (its company's members), who may take a token
 * (whoever may see the session) and who a token's holder is.
 */
function facts(session: SessionContext) {
  return {
    queueId: session.queueId,
    companyId: session.companyId,
    queueStatus: session.queueStatus,
    visibility: session.visibility,
    subQueueId: session.subQueueId,
  };
}

const sessionTarget = (session: SessionContext) => ({
  kind: 'session' as const,
  sessionId: session.sessionId,
  ...facts(session),
});

export const authorizeSession = (
  db: Queryable,
  caller: Caller,
  action: Action,
  session: SessionContext,
): Promise<Standing> => authorize(db, caller, action, sessionTarget(session));

/** `authorizeSession` with the caller's ties read with the session's lock (`lockSessionWithTies`). */
export const authorizeLockedSession = (
  caller: Caller,
  action: Action,
  { session, ties }: { session: SessionContext; ties: Ties },
): Standing => assertMay(standingGiven(caller, sessionTarget(session), ties), action);

export const authorizeToken = (
  db: Queryable,
  caller: Caller,
  action: Action,
  token: TokenRow,
  session: SessionContext,
): Promise<Standing> =>
  authorize(db, caller, action, {
    kind: 'token',
    tokenId: token.id,
    holderId: token.userId,
    ...facts(session),
  });

/** Whether the caller reads every token of the session (and visitors' contact details). */
export const readsAllTokens = async (db: Queryable, caller: Caller, session: SessionContext) =>
  may(await standingOf(db, caller, sessionTarget(session)), 'session.read_tokens');

/** A company's figures: its members; an unknown session or queue is refused like a foreign one. */
export const authorizeFigures = (db: Queryable, caller: Caller, companyId: string | undefined) =>
  authorize(db, caller, 'session.read_figures', {
    kind: 'company',
    companyId: companyId ?? '00000000-0000-0000-0000-000000000000',
  });

/** A branch board: whoever may see the queue (a hidden one is not found, like a missing one). */
export const authorizeQueueBoard = (db: Queryable, caller: Caller, queue: QueueFacts) =>
  authorize(db, caller, 'queue.read', { kind: 'queue', ...queue });

/** Which of a branch board's sessions the caller may see, each by the board's own rule. */
export async function boardsShown<T extends { session: SessionContext }>(
  db: Queryable,
  caller: Caller,
  boards: readonly T[],
): Promise<T[]> {
  const allowed = await allowedAmong(
    db,
    caller,
    'session.read_board',
    boards.map((board) => sessionTarget(board.session)),
  );
  const ids = new Set(allowed.map((target) => target.sessionId));
  return boards.filter((board) => ids.has(board.session.sessionId));
}
