import { describe, expect, it } from 'vitest';
import {
  type CallEvent,
  type CallRef,
  type CallState,
  callReducer,
  idleCall,
} from './callMachine.ts';

const call: CallRef = {
  meetingId: '3f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  sessionId: '6f1d2c7a-3b1e-4f4e-9a8c-2d2b6f9e0a11',
  tokenId: '0b7c1f8e-2d3a-4c5b-8e9f-1a2b3c4d5e6f',
};
const other: CallRef = { ...call, meetingId: '7a2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e' };
const offer = { type: 'offer', sdp: 'v=0 first' } as const;

const run = (events: CallEvent[], from: CallState = idleCall) => events.reduce(callReducer, from);
const ring = (ref = call): CallEvent => ({
  type: 'offer-received',
  call: ref,
  offer,
  from: 'dr@example.com',
});

describe('call state machine (spec §4)', () => {
  it('rings on an offer, keeping the offer and who calls', () => {
    const state = run([ring()]);
    expect(state).toMatchObject({
      phase: 'ringing-in',
      role: 'callee',
      call,
      offer,
      from: 'dr@example.com',
    });
  });

  it('answered: connecting, then active once media flows; exit ends it by this side', () => {
    expect(run([ring(), { type: 'answer-clicked' }]).phase).toBe('connecting');
    const active = run([ring(), { type: 'answer-clicked' }, { type: 'connected' }]);
    expect(active.phase).toBe('active');
    expect(run([{ type: 'exit-clicked' }], active)).toMatchObject({
      phase: 'ended',
      by: 'me',
      offer: null,
    });
  });

  it('an exit from the other side ends the call by them', () => {
    const state = run([
      ring(),
      { type: 'answer-clicked' },
      { type: 'connected' },
      { type: 'exit-received' },
    ]);
    expect(state).toMatchObject({ phase: 'ended', by: 'other' });
  });

  it('a repeated offer of the same call refreshes the stored offer without ringing anew', () => {
    const first = run([ring()]);
    const again = callReducer(first, {
      type: 'offer-received',
      call,
      offer: { type: 'offer', sdp: 'v=0 with candidates' },
      from: 'dr@example.com',
    });
    expect(again.phase).toBe('ringing-in');
    expect(again.offer?.sdp).toBe('v=0 with candidates');
  });

  it('an offer of another meeting during a call is not taken', () => {
    const busy = run([ring(), { type: 'answer-clicked' }]);
    expect(callReducer(busy, ring(other))).toBe(busy);
  });

  it('declined: by this side from the ringing dialog, by the other side for the caller', () => {
    expect(run([ring(), { type: 'decline-clicked' }])).toMatchObject({
      phase: 'declined',
      by: 'me',
      offer: null,
    });
    const ringing = run([{ type: 'call-started', call }]);
    expect(ringing).toMatchObject({ phase: 'ringing-out', role: 'caller' });
    expect(run([{ type: 'decline-received' }], ringing)).toMatchObject({
      phase: 'declined',
      by: 'other',
    });
  });

  it('the caller connects when the answer arrives; a decline then changes nothing', () => {
    const connecting = run([{ type: 'call-started', call }, { type: 'answer-received' }]);
    expect(connecting.phase).toBe('connecting');
    expect(callReducer(connecting, { type: 'decline-received' })).toBe(connecting);
  });

  it("the server's missed ends the ringing on both sides, but not a call in progress", () => {
    const missed: CallEvent = { type: 'server-state', meetingId: call.meetingId, state: 'missed' };
    expect(run([ring(), missed]).phase).toBe('missed');
    expect(run([{ type: 'call-started', call }, missed]).phase).toBe('missed');
    const active = run([ring(), { type: 'answer-clicked' }, { type: 'connected' }]);
    expect(callReducer(active, missed)).toBe(active);
  });

  it('answered in another tab: this tab stops ringing', () => {
    const state = run([
      ring(),
      { type: 'server-state', meetingId: call.meetingId, state: 'active' },
    ]);
    expect(state).toEqual(idleCall);
  });

  it("the server's ended closes a live or failed call; events of other meetings change nothing", () => {
    const active = run([ring(), { type: 'answer-clicked' }, { type: 'connected' }]);
    const ended = { type: 'server-state', meetingId: call.meetingId, state: 'ended' } as const;
    expect(callReducer(active, ended)).toMatchObject({ phase: 'ended', by: 'other' });
    const failed = callReducer(active, { type: 'failed', reason: 'connection_lost' });
    expect(callReducer(failed, ended).phase).toBe('ended');
    expect(callReducer(active, { ...ended, meetingId: other.meetingId })).toBe(active);
  });

  it('a lost connection reconnects, fails, and Rejoin connects again', () => {
    const active = run([ring(), { type: 'answer-clicked' }, { type: 'connected' }]);
    const reconnecting = callReducer(active, { type: 'disconnected' });
    expect(reconnecting.phase).toBe('reconnecting');
    expect(callReducer(reconnecting, { type: 'connected' }).phase).toBe('active');
    const failed = callReducer(reconnecting, { type: 'failed', reason: 'connection_lost' });
    expect(failed).toMatchObject({ phase: 'failed', failure: 'connection_lost' });
    expect(callReducer(failed, { type: 'rejoin' })).toMatchObject({
      phase: 'connecting',
      failure: null,
    });
  });

  it('ignores actions that do not fit the phase', () => {
    expect(callReducer(idleCall, { type: 'answer-clicked' })).toBe(idleCall);
    expect(callReducer(idleCall, { type: 'exit-clicked' })).toBe(idleCall);
    expect(callReducer(idleCall, { type: 'failed', reason: 'setup' })).toBe(idleCall);
    const ringing = run([ring()]);
    expect(callReducer(ringing, { type: 'dismiss' })).toBe(ringing);
    const declined = callReducer(ringing, { type: 'decline-clicked' });
    expect(callReducer(declined, { type: 'dismiss' })).toEqual(idleCall);
    // After a finished call a new ring is taken.
    expect(callReducer(declined, ring(other))).toMatchObject({ phase: 'ringing-in', call: other });
  });
});
