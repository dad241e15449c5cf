import { type CallMessage, callMessageSchema } from '@upnext/contract/meetings';
import { topics } from '@upnext/contract/realtime-topics';
import type { CallAuthorizer, CallDecision } from '../../realtime/realtime.policy.ts';
import { subscribeIdOf } from '../../realtime/realtime.repository.ts';
import { sideOf, takesPart } from './meetings.policy.ts';
import { findMeetingForCall } from './meetings.repository.ts';
import { announceState, applyCall, type MeetingStateDeps } from './meetings.service.ts';

const refuse = (message: string): CallDecision => ({ allow: false, message });

/**
 * The `/app/call` rule (spec §7, PRODUCT.md "Realtime"): a call message is forwarded only
 * between the two parties of a live meeting, to the other party's meeting topic, and only as
 * the call flow allows (meetings.policy.ts `callRules`); answer, decline and exit move the
 * meeting on. Everything else is refused, and the STOMP endpoint answers it with an ERROR.
 */
export function createCallRelay(deps: MeetingStateDeps): CallAuthorizer {
  return async (caller, message) => {
    const parsed = callMessageSchema.safeParse(message);
    if (!parsed.success) return refuse(`Malformed call message: ${firstIssue(parsed.error)}`);
    const call = parsed.data;
    const meeting = await findMeetingForCall(
      deps.db,
      call.meta.token,
      call.meta.meetingId,
      caller.userId,
    );
    // A stranger learns no more than someone naming a meeting that does not exist.
    if (!meeting || !(await takesPart(deps.db, meeting, caller))) {
      return refuse('There is no meeting of yours for this call.');
    }
    const side = sideOf(meeting, caller);
    if (meeting.sessionId !== call.meta.sessionId || meeting.tokenId !== call.meta.token) {
      return refuse("This call names another session or token than its meeting's.");
    }
    const applied = await applyCall(deps, meeting, side, call.type);
    if ('refused' in applied) return refuse(applied.refused);
    // The state change (an answer's `active`) is announced after the message is forwarded: the
    // caller needs the answer first, and handling the event would only delay it there.
    const announce = applied.changed ? () => announceState(deps, applied.meeting) : undefined;
    // Read only: both parties' topics were made when the meeting started.
    const to = await subscribeIdOf(
      deps.db,
      side === 'staff' ? meeting.visitorUserId : meeting.staffUserId,
    );
    if (!to) {
      await announce?.();
      return refuse('The other party cannot be reached.');
    }
    const body: CallMessage = {
      ...call,
      meta: { ...call.meta, email: caller.email ?? '', meetingId: meeting.id },
    };
    return {
      allow: true,
      destination: topics.meeting(to),
      body,
      ...(announce ? { afterForward: announce } : {}),
    };
  };
}

function firstIssue(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }) {
  const issue = error.issues[0];
  if (!issue) return 'not a call message.';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
