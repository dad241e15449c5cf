import {
  type CallMessageType,
  type Meeting,
  type MeetingState,
  type MeetingStateEvent,
  meetingRingMs,
  type StartMeetingInput,
} from '@upnext/contract/meetings';
import { topics } from '@upnext/contract/realtime-topics';
import type { IceConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { atDeskStatuses } from '../../db/schema/tokens.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { EventPublisher } from '../../lib/events.ts';
import { notFoundError } from '../access/access.ts';
import type { Caller } from '../access/caller.ts';
import { assertWithinPlan } from '../billing/billing.service.ts';
import * as tokensRepo from '../tokens/tokens.repository.ts';
import { iceServersFor } from './ice-servers.ts';
import {
  callRuleFor,
  requireMeetingStarter,
  requireParty,
  type Side,
  sideOf,
} from './meetings.policy.ts';
import type { MeetingRow, MeetingView } from './meetings.repository.ts';
import * as repo from './meetings.repository.ts';

/** What changing a meeting's state needs (the relay and the sweeper have no more). */
export type MeetingStateDeps = { db: Db; clock: Clock; publisher: EventPublisher };
export type MeetingsDeps = MeetingStateDeps & { ice: IceConfig };

/** A call with a token's holder may start or go on while the token is at a desk. */
const inService = new Set<string>(atDeskStatuses);

/**
 * Staff ring the visitor holding the token they are calling or serving. The session row lock
 * (the one every token change takes) keeps the token's state and "one live meeting per token"
 * true while the meeting is written.
 */
export async function startMeeting(
  deps: MeetingsDeps,
  caller: Caller,
  input: StartMeetingInput,
): Promise<Meeting> {
  const meeting = await deps.db.transaction(async (tx) => {
    const session = await tokensRepo.lockSessionContext(tx, input.sessionId);
    if (!session) throw notFoundError.session();
    await requireMeetingStarter(tx, caller, session);
    if (caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to continue.');
    if (!(await repo.queueOffersVideo(tx, session.queueId))) {
      throw new AppError('video_not_offered', "This session's queue does not offer video calls.");
    }
    const token = await tokensRepo.findToken(tx, input.tokenId);
    if (!token || token.sessionId !== session.sessionId) {
      throw notFoundError.token();
    }
    if (!inService.has(token.status)) {
      throw new AppError(
        'token_not_in_service',
        'Call the token (or start serving it) before starting a video call.',
        { status: token.status },
      );
    }
    if (!token.userId) {
      throw new AppError(
        'visitor_not_reachable',
        'This visitor has no account, so there is nobody to ring.',
      );
    }
    if (token.userId === caller.userId) {
      throw new AppError('visitor_not_reachable', 'You cannot ring yourself.');
    }
    const existing = await repo.findLiveMeetingOfToken(tx, token.id);
    if (existing) {
      throw new AppError('meeting_in_progress', 'This token already has a call in progress.', {
        meetingId: existing.id,
      });
    }
    const now = deps.clock();
    await assertWithinPlan(tx, session.companyId, 'video', token.id, now);
    return repo.insertMeeting(tx, {
      sessionId: session.sessionId,
      tokenId: token.id,
      staffUserId: caller.userId,
      visitorUserId: token.userId,
      state: 'ringing',
      createdAt: now,
      ringingUntil: new Date(now.getTime() + meetingRingMs),
    });
  });
  await announceState(deps, meeting);
  return presentOne(deps, meeting.id, 'staff');
}

/** One meeting, for its two parties only (the meeting screen checks queueId and sessionId). */
export async function getMeeting(deps: MeetingsDeps, caller: Caller, meetingId: string) {
  const view = await repo.findMeetingView(deps.db, meetingId);
  const { side } = await requireParty(deps.db, view?.meeting, caller);
  return present(view as MeetingView, side, deps.clock());
}

/** The caller's own meetings on either side, newest first (e.g. a call waiting: state=ringing). */
export async function listMeetings(
  deps: MeetingsDeps,
  caller: Caller,
  state: MeetingState | undefined,
): Promise<Meeting[]> {
  if (caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to continue.');
  const now = deps.clock();
  const views = await repo.listMeetingViews(deps.db, caller.userId, state, now, 50);
  return views.map((view) => present(view, sideOf(view.meeting, caller), now));
}

/** Either party hangs up, exactly as an `exit` message would. */
export async function endMeeting(deps: MeetingsDeps, caller: Caller, meetingId: string) {
  const { meeting, side } = await requireParty(
    deps.db,
    await repo.findMeeting(deps.db, meetingId),
    caller,
  );
  const applied = await applyCall(deps, meeting, side, 'exit');
  if ('refused' in applied) {
    throw new AppError('meeting_not_live', applied.refused, {
      state: stateAt(meeting, deps.clock()),
    });
  }
  if (applied.changed) await announceState(deps, applied.meeting);
  return presentOne(deps, meeting.id, side);
}

/** The caller's own ICE servers (and TURN credential), while the meeting is live. */
export async function getIceServers(deps: MeetingsDeps, caller: Caller, meetingId: string) {
  const party = await requireParty(deps.db, await repo.findMeeting(deps.db, meetingId), caller);
  const now = deps.clock();
  const state = stateAt(party.meeting, now);
  if (state !== 'ringing' && state !== 'active') {
    throw new AppError('meeting_not_live', `This meeting is over (${state}).`, { state });
  }
  return iceServersFor(deps.ice, party.caller.userId, now);
}

/**
 * Checks a call message of `type` from `side` against the rules, and makes the state change it
 * causes (answer → active, decline → declined, exit → ended) under the meeting's row lock.
 * The caller announces a change (`changed`) to both parties after the commit, with
 * `announceState`: the relay does so after forwarding the message itself, so an answer reaches
 * the caller ahead of the state event it caused.
 */
export async function applyCall(
  deps: MeetingStateDeps,
  meeting: MeetingRow,
  side: Side,
  type: CallMessageType,
): Promise<{ meeting: MeetingRow; changed: boolean } | { refused: string }> {
  const checked = callRuleFor(meeting, side, type, deps.clock());
  if ('refused' in checked) return checked;
  const to = checked.rule.to;
  if (to === undefined || to === meeting.state) return { meeting, changed: false };
  const changed = await deps.db.transaction(async (tx) => {
    const locked = await repo.lockMeeting(tx, meeting.id);
    if (!locked) return { refused: 'This meeting does not exist any more.' };
    // The state may have moved since it was read (the other side hung up, the call was missed).
    const again = callRuleFor(locked, side, type, deps.clock());
    if ('refused' in again) return again;
    const now = deps.clock();
    return {
      meeting: await repo.updateMeeting(tx, meeting.id, {
        state: to,
        ...(to === 'active' ? { answeredAt: now } : { endedAt: now }),
      }),
      changed: true,
    };
  });
  return changed;
}

/** Calls still ringing past their deadline become missed, and both sides hear it. */
export async function sweepMissedCalls(deps: MeetingStateDeps, limit = 100): Promise<number> {
  const missed = await repo.markMissed(deps.db, deps.clock(), limit);
  for (const meeting of missed) await announceState(deps, meeting);
  return missed.length;
}

/** Calls of visits that are over (token completed, cancelled, ...) end, and both sides hear it. */
export async function endCallsOfFinishedVisits(
  deps: MeetingStateDeps,
  limit = 100,
): Promise<number> {
  const ended = await repo.endMeetingsOfFinishedTokens(deps.db, deps.clock(), limit);
  for (const meeting of ended) await announceState(deps, meeting);
  return ended.length;
}

/** The meeting's topic name of each party (made on first need, like every user topic). */
async function subscribeIdsOfParties(deps: MeetingStateDeps, meeting: MeetingRow) {
  const ids = await tokensRepo.subscribeIdsOf(deps.db, [
    meeting.staffUserId,
    meeting.visitorUserId,
  ]);
  return { staff: ids.get(meeting.staffUserId), visitor: ids.get(meeting.visitorUserId) };
}

/** Tells both parties the meeting's state (after the commit that changed it). */
export async function announceState(deps: MeetingStateDeps, meeting: MeetingRow) {
  const queueId = await repo.queueOfSession(deps.db, meeting.sessionId);
  if (!queueId) return;
  const event: MeetingStateEvent = {
    type: 'meeting.state',
    meetingId: meeting.id,
    queueId,
    sessionId: meeting.sessionId,
    tokenId: meeting.tokenId,
    state: meeting.state,
    at: deps.clock().toISOString(),
  };
  const parties = await subscribeIdsOfParties(deps, meeting);
  for (const subscribeId of [parties.staff, parties.visitor]) {
    if (subscribeId) deps.publisher.publish(topics.meeting(subscribeId), event);
  }
}

/** A call still ringing past its deadline is missed, even before the sweep has written it. */
function stateAt(meeting: MeetingRow, now: Date): MeetingState {
  return meeting.state === 'ringing' && meeting.ringingUntil <= now ? 'missed' : meeting.state;
}

async function presentOne(deps: MeetingsDeps, meetingId: string, side: Side) {
  const view = await repo.findMeetingView(deps.db, meetingId);
  if (!view) throw new AppError('meeting_not_found', 'This meeting does not exist.');
  return present(view, side, deps.clock());
}

function present(view: MeetingView, side: Side, now: Date): Meeting {
  const m = view.meeting;
  return {
    id: m.id,
    queueId: view.queueId,
    sessionId: m.sessionId,
    tokenId: m.tokenId,
    tokenLabel: view.tokenLabel,
    companyName: view.companyName,
    queueName: view.queueName,
    state: stateAt(m, now),
    staffUserId: m.staffUserId,
    staffName: view.staffDisplayName || view.staffEmail || '',
    visitorUserId: m.visitorUserId,
    visitorName: view.tokenVisitorName || view.visitorDisplayName || view.visitorEmail || '',
    role: side,
    createdAt: m.createdAt.toISOString(),
    ringingUntil: m.ringingUntil.toISOString(),
    answeredAt: m.answeredAt?.toISOString() ?? null,
    endedAt: m.endedAt?.toISOString() ?? null,
  };
}
