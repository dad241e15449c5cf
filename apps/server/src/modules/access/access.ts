import type { Db, Tx } from '../../db/client.ts';
import type { CompanyRole } from '../../db/schema/companies.ts';
import { AppError } from '../../lib/errors.ts';
import * as repo from './access.repository.ts';
import type { Caller, SignedInCaller } from './caller.ts';

/**
 * The one access rule of the product. `standingOf` works out, once per request, what the caller
 * is to a company, queue, session, token, request or user; `may` answers whether that standing
 * allows an action; `authorize` does both and refuses in one way everywhere:
 * 401 for anonymous callers, 404 for what the caller may not even see (existence does not
 * leak), 403 otherwise. Every policy file and the realtime policy ask here; nothing else decides.
 *
 * The staff rule (docs/WORKSPACE.md): owners and admins run every session of their company;
 * staff run only the sessions of the sub-queues they are assigned to (a session without a
 * sub-queue: any staff of the company). Staff who do not run a session may still read it.
 */

type Queryable = Db | Tx;

/** What the caller is to the resource. */
type Relation =
  | 'owner'
  | 'admin'
  /** Staff who run this session (assigned to its sub-queue, or it has none). */
  | 'assigned_staff'
  /** Staff of the company who do not run this session (or any staff, for company and queue). */
  | 'staff'
  /** Signed in, not a member, holding an approved join request for this private queue. */
  | 'approved_requester'
  /** Signed in and not a member (members of other companies too). */
  | 'visitor'
  | 'anonymous';

export type QueueFacts = {
  queueId: string;
  companyId: string;
  queueStatus: 'active' | 'archived';
  visibility: 'public' | 'unlisted' | 'private';
};

/** What an action is about. Targets carry the facts the rule needs; the caller's ties are looked up. */
export type Target =
  | { kind: 'company'; companyId: string }
  | ({ kind: 'queue' } & QueueFacts)
  | ({ kind: 'session'; sessionId: string; subQueueId: string | null } & QueueFacts)
  | ({
      kind: 'token';
      tokenId: string;
      /** The holder's account; walk-ins issued by staff have none. */
      holderId: string | null;
      subQueueId: string | null;
    } & QueueFacts)
  | { kind: 'request'; companyId: string; requesterId: string }
  | { kind: 'user'; userId: string }
  /** A video meeting: its staff member and its visitor are its parties. */
  | { kind: 'meeting'; staffUserId: string; visitorUserId: string }
  | { kind: 'anything' };

/** Every action of the product, each with the rule that allows it. */
const actions = [
  // Companies and their members.
  'company.create',
  'company.read',
  'company.manage',
  /** Buying, changing and cancelling the company's plan (issue 13): its owners only. */
  'company.billing',
  /** A company's reports (issue 16): what its queues did, for every member. */
  'company.read_reports',
  // Queues and their parts (sub-queues, service types and areas), promotions, join requests.
  'queue.create',
  'queue.read',
  'queue.read_internal',
  'queue.list_all',
  'queue.manage',
  'promotion.manage',
  'promotion.list_private',
  'request.create',
  'request.decide',
  'request.withdraw',
  // Sessions: scheduling and reading.
  'session.manage',
  'session.read',
  'session.read_board',
  'session.follow',
  'session.read_tokens',
  'session.read_figures',
  // Live actions: run by those who run the session.
  'session.open',
  'session.pause',
  'session.close',
  'session.cancel',
  'session.block_slots',
  'session.call_next',
  'token.recall',
  'token.no_show',
  'token.start',
  'token.complete',
  'token.requeue',
  'token.take_over',
  'token.record_service_time',
  'token.issue_walk_in',
  'meeting.start',
  // Visitors' tokens.
  'token.take',
  'token.read',
  'token.cancel',
  /** Moving a booking to another slot (issue 16): its holder, or those who run its session. */
  'token.reschedule',
  // People.
  'user.read_data',
  'user.update_profile',
  'user.answer_invitations',
  'user.follow',
  'call.send',
  // Meetings: read, end, ICE servers and call messages.
  'meeting.take_part',
] as const;
export type Action = (typeof actions)[number];

export type Standing = {
  caller: Caller;
  target: Target;
  relation: Relation;
  /** The caller's active role in the target's company, if any. */
  role: CompanyRole | undefined;
  /** The caller holds the token, made the request, or is the user named. */
  self: boolean;
  /** The caller is an active owner or admin of a company where the named user is active. */
  administers: boolean;
};

const managerRelations: readonly Relation[] = ['owner', 'admin'];
const memberRelations: readonly Relation[] = ['owner', 'admin', 'assigned_staff', 'staff'];
const runnerRelations: readonly Relation[] = ['owner', 'admin', 'assigned_staff'];

export const isMember = (standing: Standing) => memberRelations.includes(standing.relation);
const isManager = (standing: Standing) => managerRelations.includes(standing.relation);
const runs = (standing: Standing) => runnerRelations.includes(standing.relation);
const signedIn = (standing: Standing) => standing.caller.kind === 'user';

/** Whether the caller may see the target at all; what they may not see is "not found". */
export function sees(standing: Standing): boolean {
  const { target } = standing;
  if (target.kind === 'token') return standing.self || isMember(standing);
  if (target.kind === 'request' || target.kind === 'meeting') return standing.self;
  if (target.kind !== 'queue' && target.kind !== 'session') return true;
  if (isMember(standing)) return true;
  if (target.queueStatus !== 'active') return false;
  return target.visibility !== 'private' || standing.relation === 'approved_requester';
}

const live = runs;
const rules: Record<Action, (standing: Standing) => boolean> = {
  'company.create': (s) => s.caller.kind === 'user' && !s.caller.isAnonymous,
  'company.read': isMember,
  'company.manage': isManager,
  'company.billing': (s) => s.relation === 'owner',
  'company.read_reports': isMember,
  'queue.create': isManager,
  'queue.read': sees,
  'queue.read_internal': isMember,
  'queue.list_all': isMember,
  'queue.manage': isManager,
  'promotion.manage': isManager,
  'promotion.list_private': isMember,
  'request.create': signedIn,
  'request.decide': isManager,
  'request.withdraw': (s) => s.self,
  'session.manage': isManager,
  'session.read': sees,
  // The board and the session's topic tell everyone who may see the session the same thing.
  'session.read_board': sees,
  'session.follow': sees,
  'session.read_tokens': isMember,
  'session.read_figures': isMember,
  'session.open': live,
  'session.pause': live,
  'session.close': live,
  'session.cancel': live,
  'session.block_slots': live,
  'session.call_next': live,
  'token.recall': live,
  'token.no_show': live,
  'token.start': live,
  'token.complete': live,
  'token.requeue': live,
  'token.take_over': live,
  'token.record_service_time': live,
  'token.issue_walk_in': live,
  'meeting.start': live,
  'token.take': (s) => signedIn(s) && sees(s),
  'token.read': (s) => s.self || isMember(s),
  'token.cancel': (s) => s.self || runs(s),
  'token.reschedule': (s) => s.self || runs(s),
  'user.read_data': (s) => s.self || s.administers,
  'user.update_profile': (s) => s.self,
  'user.answer_invitations': (s) => s.self,
  'user.follow': (s) => s.self,
  'call.send': signedIn,
  'meeting.take_part': (s) => s.self,
};

/** Answers that say more than "no permission". */
const refusals: Partial<Record<Action, string>> = {
  'company.create': 'Create an account before you set up a company.',
  'company.billing': "Only the company's owner can change or cancel its plan.",
  'token.issue_walk_in':
    'Only staff running this session can issue walk-ins or set a priority or notes.',
  'user.read_data': 'You may only read your own roles record.',
};

export function may(standing: Standing, action: Action): boolean {
  return rules[action](standing);
}

function companyOf(target: Target): string | undefined {
  return 'companyId' in target ? target.companyId : undefined;
}

/** What the caller is when nothing in particular is at stake: signed in or not. */
export function plainStanding(caller: Caller): Standing {
  return {
    caller,
    target: { kind: 'anything' },
    role: undefined,
    self: false,
    administers: false,
    relation: caller.kind === 'user' ? 'visitor' : 'anonymous',
  };
}

/** The standing that needs no look-up; undefined for a signed-in user and a real target. */
function standingWithoutTies(caller: Caller, target: Target): Standing | undefined {
  // A status link's bearer holds its one token and is anonymous to everything else.
  if (caller.kind === 'status_link') {
    const self = target.kind === 'token' && target.tokenId === caller.tokenId;
    return { ...plainStanding(caller), target, self };
  }
  if (caller.kind !== 'user' || target.kind === 'anything')
    return { ...plainStanding(caller), target };
  // A meeting's parties are named in it: nothing to look up.
  if (target.kind === 'meeting') {
    const noTies = { role: undefined, assigned: false, approved: false, administers: false };
    return standingFrom(caller, target, noTies);
  }
  return undefined;
}

/** What the caller is to the target: one look-up of their ties, then plain data. */
export async function standingOf(db: Queryable, caller: Caller, target: Target): Promise<Standing> {
  const known = standingWithoutTies(caller, target);
  if (known || caller.kind !== 'user') return known ?? plainStanding(caller);
  const ties = await repo.tiesOf(db, caller.userId, {
    companyId: companyOf(target),
    queueId: 'queueId' in target ? target.queueId : undefined,
    subQueueId: 'subQueueId' in target ? target.subQueueId : undefined,
    userId: target.kind === 'user' ? target.userId : undefined,
  });
  return standingFrom(caller, target, ties);
}

/**
 * `standingOf` from ties already read, in the statement that read the target
 * (`repo.tiesColumns`): the same rule, one round trip fewer.
 */
export function standingGiven(caller: Caller, target: Target, ties: repo.Ties): Standing {
  const known = standingWithoutTies(caller, target);
  if (known || caller.kind !== 'user') return known ?? plainStanding(caller);
  return standingFrom(caller, target, ties);
}

/** Private queues the caller was approved for: a list's candidates, which `allowedAmong` then checks. */
export async function approvedQueuesOf(db: Queryable, caller: Caller): Promise<string[]> {
  return caller.kind === 'user' ? repo.approvedQueueIds(db, caller.userId) : [];
}

type ListTarget = Extract<Target, { kind: 'queue' | 'session' | 'token' }>;

/**
 * Which of many queues, sessions or tokens the caller may `action`: a list's filter. The
 * caller's ties to all of them are looked up at once; each is then asked of `may` as one
 * request would be.
 */
export async function allowedAmong<T extends ListTarget>(
  db: Queryable,
  caller: Caller,
  action: Action,
  targets: readonly T[],
): Promise<T[]> {
  if (caller.kind !== 'user') {
    return targets.filter((target) => may({ ...plainStanding(caller), target }, action));
  }
  const unique = (ids: Array<string | null>) => [
    ...new Set(ids.filter((id): id is string => id !== null)),
  ];
  const ties = await repo.tiesToMany(db, caller.userId, {
    companyIds: unique(targets.map((t) => t.companyId)),
    queueIds: unique(targets.map((t) => t.queueId)),
    subQueueIds: unique(targets.map((t) => ('subQueueId' in t ? t.subQueueId : null))),
  });
  return targets.filter((target) => {
    const subQueueId = 'subQueueId' in target ? target.subQueueId : null;
    const standing = standingFrom(caller, target, {
      role: ties.roles.get(target.companyId),
      approved: ties.approved.has(target.queueId),
      assigned: subQueueId !== null && ties.assigned.has(subQueueId),
      administers: false,
    });
    return may(standing, action);
  });
}

function standingFrom(caller: SignedInCaller, target: Target, ties: repo.Ties): Standing {
  const self =
    (target.kind === 'token' && target.holderId === caller.userId) ||
    (target.kind === 'request' && target.requesterId === caller.userId) ||
    (target.kind === 'user' && target.userId === caller.userId) ||
    (target.kind === 'meeting' &&
      (target.staffUserId === caller.userId || target.visitorUserId === caller.userId));
  const base = { caller, target, role: ties.role, self, administers: ties.administers };
  if (ties.role === 'owner' || ties.role === 'admin') return { ...base, relation: ties.role };
  if (ties.role === 'staff') {
    const session = target.kind === 'session' || target.kind === 'token';
    const assigned = session && (target.subQueueId === null || ties.assigned);
    return { ...base, relation: assigned ? 'assigned_staff' : 'staff' };
  }
  return { ...base, relation: ties.approved ? 'approved_requester' : 'visitor' };
}

/**
 * "No such ..." for what does not exist and for what the caller may not see alike, so that
 * an answer never tells a hidden id from a missing one. Services answer a missing row with
 * these too.
 */
export const notFoundError = {
  queue: () => new AppError('not_found', 'No such queue.'),
  session: () => new AppError('session_not_found', 'This session does not exist.'),
  token: () => new AppError('token_not_found', 'This token does not exist.'),
  request: () => new AppError('not_found', 'No such request.'),
  meeting: () => new AppError('meeting_not_found', 'This meeting does not exist.'),
};

/** The one way a refusal is answered: 401 anonymous, 404 unseen, 403 otherwise. */
function refusal(standing: Standing, action: Action): AppError {
  const { target } = standing;
  if (standing.caller.kind !== 'user' && !(action in readableByAnyone)) {
    return new AppError('unauthorized', 'Sign in to continue.');
  }
  if (!sees(standing) && target.kind in notFoundError) {
    return notFoundError[target.kind as keyof typeof notFoundError]();
  }
  if (standing.caller.kind !== 'user') {
    return new AppError('unauthorized', 'Sign in to continue.');
  }
  return new AppError(
    'forbidden',
    refusals[action] ?? 'You do not have permission to do this in this company.',
  );
}

/** Reads anyone may be allowed: an anonymous caller who may not see them gets 404, not 401. */
const readableByAnyone: Partial<Record<Action, true>> = {
  'queue.read': true,
  'session.read': true,
  'session.read_board': true,
  'session.follow': true,
};

/** Throws the refusal unless the standing allows the action. */
export function assertMay(standing: Standing, action: Action): Standing {
  if (!may(standing, action)) throw refusal(standing, action);
  return standing;
}

/** Works out the caller's standing and asserts the action: what every policy calls. */
export async function authorize(
  db: Queryable,
  caller: Caller,
  action: Action,
  target: Target,
): Promise<Standing> {
  return assertMay(await standingOf(db, caller, target), action);
}

/** The signed-in caller of an allowed standing (for actions that need one). */
export function signedInOf(standing: Standing): SignedInCaller {
  if (standing.caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to continue.');
  return standing.caller;
}
