import type { MeetingState } from '@upnext/contract/meetings';

/**
 * The call's state machine (spec §4 "Call flow", PRODUCT.md "Meetings"), pure: the controller
 * (callController.ts) feeds it what happened and does what the new state asks for.
 *
 *   idle ──offer──▶ ringing-in ──answer──▶ connecting ──media flows──▶ active
 *   idle ──start──▶ ringing-out ──answer received──▶ connecting
 *   ringing-in ──decline──▶ declined (ours)      ringing-out ──decline──▶ declined (theirs)
 *   ringing-* ──server "missed" (45 s)──▶ missed
 *   active ──ICE disconnected──▶ reconnecting ──connected──▶ active, ──failed──▶ failed
 *   any live state ──exit (either side, or the server's "ended")──▶ ended
 */
const livePhases = ['ringing-in', 'ringing-out', 'connecting', 'active', 'reconnecting'] as const;
const finalPhases = ['declined', 'missed', 'ended', 'failed'] as const;
export type LivePhase = (typeof livePhases)[number];
type FinalPhase = (typeof finalPhases)[number];
export type CallPhase = 'idle' | LivePhase | FinalPhase;

/** Which meeting the call is, as the signalling's `meta` names it. */
export interface CallRef {
  meetingId: string;
  sessionId: string;
  tokenId: string;
}

type Side = 'me' | 'other';
/** Why a call failed: media could not be set up, or the connection was lost for good. */
type FailureReason = 'setup' | 'connection_lost';

export interface CallState {
  phase: CallPhase;
  call: CallRef | null;
  /** Who rang: the callee answers, the caller offers. */
  role: 'caller' | 'callee' | null;
  /** The caller's offer, kept from the ring until Answer (spec §4: "stores the offer"). */
  offer: RTCSessionDescriptionInit | null;
  /** The caller's email as the server set it on the offer (the dialog names the caller). */
  from: string;
  /** Who ended or declined the call. */
  by: Side | null;
  failure: FailureReason | null;
}

export const idleCall: CallState = {
  phase: 'idle',
  call: null,
  role: null,
  offer: null,
  from: '',
  by: null,
  failure: null,
};

export type CallEvent =
  | { type: 'offer-received'; call: CallRef; offer: RTCSessionDescriptionInit; from: string }
  | { type: 'call-started'; call: CallRef }
  | { type: 'answer-clicked' }
  | { type: 'decline-clicked' }
  | { type: 'answer-received' }
  | { type: 'decline-received' }
  | { type: 'exit-clicked' }
  | { type: 'exit-received' }
  | { type: 'connected' }
  | { type: 'disconnected' }
  | { type: 'failed'; reason: FailureReason }
  | { type: 'rejoin' }
  | { type: 'server-state'; meetingId: string; state: MeetingState }
  | { type: 'dismiss' };

export function isLive(phase: CallPhase): phase is LivePhase {
  return (livePhases as readonly string[]).includes(phase);
}

const sameCall = (state: CallState, meetingId: string) => state.call?.meetingId === meetingId;

/** The next state; an event that does not apply leaves the state as it is (same object). */
export function callReducer(state: CallState, event: CallEvent): CallState {
  switch (event.type) {
    case 'offer-received': {
      // A repeated offer while ringing (the caller re-sends it for late listeners) refreshes it.
      if (state.phase === 'ringing-in' && sameCall(state, event.call.meetingId)) {
        return { ...state, offer: event.offer, from: event.from };
      }
      // Busy in another call: the new one is not taken (it will be missed or ended).
      if (isLive(state.phase)) return state;
      return {
        ...idleCall,
        phase: 'ringing-in',
        call: event.call,
        role: 'callee',
        offer: event.offer,
        from: event.from,
      };
    }
    case 'call-started':
      if (isLive(state.phase)) return state;
      return { ...idleCall, phase: 'ringing-out', call: event.call, role: 'caller' };
    case 'answer-clicked':
      return state.phase === 'ringing-in' ? { ...state, phase: 'connecting' } : state;
    case 'decline-clicked':
      return state.phase === 'ringing-in'
        ? { ...state, phase: 'declined', by: 'me', offer: null }
        : state;
    case 'answer-received':
      return state.phase === 'ringing-out' ? { ...state, phase: 'connecting' } : state;
    case 'decline-received':
      return state.phase === 'ringing-out' ? { ...state, phase: 'declined', by: 'other' } : state;
    case 'exit-clicked':
    case 'exit-received':
      if (!isLive(state.phase)) return state;
      return {
        ...state,
        phase: 'ended',
        by: event.type === 'exit-clicked' ? 'me' : 'other',
        offer: null,
      };
    case 'connected':
      return state.phase === 'connecting' || state.phase === 'reconnecting'
        ? { ...state, phase: 'active' }
        : state;
    case 'disconnected':
      return state.phase === 'active' ? { ...state, phase: 'reconnecting' } : state;
    case 'failed':
      if (
        state.phase !== 'connecting' &&
        state.phase !== 'reconnecting' &&
        state.phase !== 'active'
      )
        return state;
      return { ...state, phase: 'failed', failure: event.reason };
    case 'rejoin':
      return state.phase === 'failed' ? { ...state, phase: 'connecting', failure: null } : state;
    case 'server-state':
      return fromServer(state, event.meetingId, event.state);
    case 'dismiss':
      return isLive(state.phase) ? state : idleCall;
  }
}

/** The server's word on the meeting (both parties hear every change; missed comes only so). */
function fromServer(state: CallState, meetingId: string, server: MeetingState): CallState {
  if (!sameCall(state, meetingId)) return state;
  switch (server) {
    case 'ringing':
      return state;
    case 'active':
      // Answered in another tab or device of the callee: this tab stops ringing.
      return state.phase === 'ringing-in' ? idleCall : state;
    case 'missed':
      return state.phase === 'ringing-in' || state.phase === 'ringing-out'
        ? { ...state, phase: 'missed', offer: null }
        : state;
    case 'declined':
      return state.phase === 'ringing-out' || state.phase === 'ringing-in'
        ? { ...state, phase: 'declined', by: state.role === 'caller' ? 'other' : 'me', offer: null }
        : state;
    case 'ended':
      // An exit message may be lost with a dropped connection; the server's "ended" is not.
      return isLive(state.phase) || state.phase === 'failed'
        ? { ...state, phase: 'ended', by: state.by ?? 'other', offer: null }
        : state;
  }
}
