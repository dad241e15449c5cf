import type { SessionStatus } from '@upnext/contract/sessions';
import type { Db, Tx } from '../../db/client.ts';
import { type Action, authorize, may, type Target } from '../access/access.ts';
import type { Caller } from '../access/caller.ts';
import type { QueueContext } from './sessions.repository.ts';

type Queryable = Db | Tx;

/**
 * Who may do what with sessions is the access module's rule (modules/access/access.ts):
 * owners and admins schedule, edit, delete and add services; those who run a session (owners,
 * admins, staff of its sub-queue) change its status and block slots; members read all
 * sessions; visitors those of queues they may see.
 */
const queueFacts = (queue: QueueContext) => ({
  queueId: queue.id,
  companyId: queue.companyId,
  queueStatus: queue.status,
  visibility: queue.visibility,
});

type SessionAtHand = { id: string; subQueueId: string | null };

/** The session when one is at hand (a hidden one is then "no such session"), else its queue. */
const targetOf = (queue: QueueContext, session?: SessionAtHand): Target =>
  session
    ? {
        kind: 'session',
        sessionId: session.id,
        subQueueId: session.subQueueId,
        ...queueFacts(queue),
      }
    : { kind: 'queue', ...queueFacts(queue) };

export async function requireSessionManager(
  db: Queryable,
  caller: Caller,
  queue: QueueContext,
  session?: SessionAtHand,
) {
  await authorize(db, caller, 'session.manage', targetOf(queue, session));
}

/** The live action a status change is. */
const statusActions: Record<SessionStatus, Action> = {
  scheduled: 'session.open',
  open: 'session.open',
  paused: 'session.pause',
  closed: 'session.close',
  cancelled: 'session.cancel',
};

export async function requireSessionOperator(
  db: Queryable,
  caller: Caller,
  queue: QueueContext,
  session: SessionAtHand,
  action: Action | { status: SessionStatus },
) {
  const named = typeof action === 'string' ? action : statusActions[action.status];
  await authorize(db, caller, named, targetOf(queue, session));
}

/** `member` when the caller belongs to the queue's company, `public` for visitors, else 404. */
export async function requireSessionReader(
  db: Queryable,
  caller: Caller,
  queue: QueueContext,
  session?: SessionAtHand,
): Promise<'member' | 'public'> {
  const standing = await authorize(db, caller, 'session.read', targetOf(queue, session));
  return may(standing, 'session.read_tokens') ? 'member' : 'public';
}
