import type { CallMessageType, MeetingState } from '@upnext/contract/meetings';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { authorize, may, notFoundError, signedInOf, standingOf } from '../access/access.ts';
import type { Caller } from '../access/caller.ts';
import { authorizeSession } from '../tokens/tokens.policy.ts';
import type { SessionContext } from '../tokens/tokens.repository.ts';
import type { MeetingRow } from './meetings.repository.ts';

/**
 * Who may do what with meetings (PRODUCT.md "Meetings"):
 * - start one: whoever may operate the session (the session operator rule), for the token
 *   being called or served, in a queue that offers video;
 * - read it, end it, get its ICE servers and signal in it: its two parties only. Anyone else
 *   learns nothing about it (404 `meeting_not_found`; over STOMP the same ERROR as for no meeting);
 * - each call message type from the side and in the state `callRules` allows.
 */
export type Side = 'staff' | 'visitor';

export async function requireMeetingStarter(db: Db | Tx, caller: Caller, session: SessionContext) {
  await authorizeSession(db, caller, 'meeting.start', session);
}

/** The caller's side of the meeting (its parties only: the access rule's `meeting.take_part`). */
export async function requireParty(db: Db | Tx, meeting: MeetingRow | undefined, caller: Caller) {
  if (!meeting) {
    if (caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to continue.');
    throw notFoundError.meeting();
  }
  const standing = await authorize(db, caller, 'meeting.take_part', meetingTarget(meeting));
  return { meeting, side: sideOf(meeting, standing.caller), caller: signedInOf(standing) };
}

/** Whether the caller takes part in the meeting (the STOMP relay, which refuses with an ERROR). */
export async function takesPart(db: Db | Tx, meeting: MeetingRow, caller: Caller) {
  return may(await standingOf(db, caller, meetingTarget(meeting)), 'meeting.take_part');
}

const meetingTarget = (meeting: MeetingRow) =>
  ({
    kind: 'meeting',
    staffUserId: meeting.staffUserId,
    visitorUserId: meeting.visitorUserId,
  }) as const;

/** Which side a party is on. */
export const sideOf = (meeting: MeetingRow, party: Caller): Side =>
  party.kind === 'user' && meeting.staffUserId === party.userId ? 'staff' : 'visitor';

type Rule = { from: readonly Side[]; to?: MeetingState };
const both: readonly Side[] = ['staff', 'visitor'];

/**
 * The call flow (spec §4): staff ring with an offer; the visitor answers (the meeting becomes
 * active) or declines; either side may hang up (`exit`) at any time. Once active, either side
 * may renegotiate (offer/answer, e.g. an ICE restart) and trickle candidates.
 */
const callRules: Record<CallMessageType, Partial<Record<'ringing' | 'active', Rule>>> = {
  offer: { ringing: { from: ['staff'] }, active: { from: both } },
  answer: { ringing: { from: ['visitor'], to: 'active' }, active: { from: both } },
  candidate: { ringing: { from: both }, active: { from: both } },
  exit: { ringing: { from: both, to: 'ended' }, active: { from: both, to: 'ended' } },
  decline: { ringing: { from: ['visitor'], to: 'declined' } },
};

/** The rule for `type` from `side` in the meeting's state, or why it is refused. */
export function callRuleFor(
  meeting: MeetingRow,
  side: Side,
  type: CallMessageType,
  now: Date,
): { rule: Rule } | { refused: string } {
  const state = meeting.state;
  if (state !== 'ringing' && state !== 'active') {
    return { refused: `This meeting is over (${state}).` };
  }
  if (state === 'ringing' && meeting.ringingUntil <= now) {
    return { refused: 'This call was not answered in time (missed).' };
  }
  const rule = callRules[type][state];
  if (!rule?.from.includes(side)) {
    return { refused: `The ${side} may not send "${type}" while the meeting is ${state}.` };
  }
  return { rule };
}
