import type { CallMessage } from '@upnext/contract/meetings';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CallController,
  type CallDeps,
  connectTimeoutMs,
  iceRestartDelayMs,
  offerRepeatMs,
  remoteVideoOffDelayMs,
} from './callController.ts';
import { FakePeerConnection, FakeStream, FakeTrack } from './fakeWebRtc.ts';

const MEETING = '3f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const SESSION = '6f1d2c7a-3b1e-4f4e-9a8c-2d2b6f9e0a11';
const TOKEN = '0b7c1f8e-2d3a-4c5b-8e9f-1a2b3c4d5e6f';
const OTHER_MEETING = '7a2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e';
const call = { meetingId: MEETING, sessionId: SESSION, tokenId: TOKEN };
const meta = { sessionId: SESSION, token: TOKEN, email: 'dr@example.com', meetingId: MEETING };
const theirOffer = {
  type: 'offer',
  offer: { type: 'offer', sdp: 'v=0\r\na=fingerprint:sha-256 THEIRS\r\na=ice-ufrag:t1\r\n' },
  meta,
} as const;
const candidate = (n: number) => ({
  type: 'candidate' as const,
  candidate: {
    candidate: `candidate:${n} 1 udp 1 127.0.0.1 ${5000 + n} typ host`,
    sdpMid: '0',
    sdpMLineIndex: 0,
  },
  meta,
});

function setup(options: { refuse?: 'camera' | 'microphone' | 'both'; online?: boolean } = {}) {
  const sent: CallMessage[] = [];
  const pcs: FakePeerConnection[] = [];
  const acquired: FakeTrack[] = [];
  const constraints: MediaStreamConstraints[] = [];
  let online = options.online ?? true;
  const refused = (kind: 'camera' | 'microphone') =>
    options.refuse === kind || options.refuse === 'both';
  const deps: CallDeps = {
    send: (message) => {
      if (!online) return false;
      sent.push(message);
      return true;
    },
    email: () => 'me@example.com',
    getIceServers: vi.fn(async () => [{ urls: ['stun:127.0.0.1:3478'] }]),
    endMeeting: vi.fn(async () => ({})),
    getUserMedia: vi.fn(async (c: MediaStreamConstraints) => {
      constraints.push(c);
      if ((c.video && refused('camera')) || (c.audio && refused('microphone'))) {
        throw new DOMException('Permission denied', 'NotAllowedError');
      }
      const tracks: FakeTrack[] = [];
      if (c.audio) tracks.push(new FakeTrack('audio', 'mic'));
      if (c.video) tracks.push(new FakeTrack('video', 'camera'));
      acquired.push(...tracks);
      return new FakeStream(tracks) as unknown as MediaStream;
    }),
    getDisplayMedia: vi.fn(async () => {
      const screen = new FakeTrack('video', 'screen');
      acquired.push(screen);
      return new FakeStream([screen]) as unknown as MediaStream;
    }),
    createPeerConnection: (config) => {
      const pc = new FakePeerConnection(config);
      pcs.push(pc);
      return pc as unknown as RTCPeerConnection;
    },
    createStream: (tracks) =>
      new FakeStream(tracks as unknown as FakeTrack[]) as unknown as MediaStream,
  };
  const controller = new CallController(deps);
  return {
    controller,
    deps,
    sent,
    pcs,
    acquired,
    constraints,
    phase: () => controller.getView().state.phase,
    setOnline: (value: boolean) => {
      online = value;
    },
  };
}

/** Lets the controller's awaited promises run. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('CallController: the callee (spec §4 "Answer")', () => {
  it('rings on an offer and ignores what is not a call message', () => {
    const { controller, phase } = setup();
    controller.handleMessage({ type: 'offer', offer: 'nope' });
    controller.handleMessage('garbage');
    expect(phase()).toBe('idle');
    controller.handleMessage(theirOffer);
    expect(phase()).toBe('ringing-in');
    expect(controller.getView().state.from).toBe('dr@example.com');
  });

  it('answers: media with echo cancellation, noise suppression and auto gain, the negotiated chat channel, then the answer', async () => {
    const { controller, pcs, sent, constraints, phase } = setup();
    controller.handleMessage(theirOffer);
    await controller.answer();
    expect(phase()).toBe('connecting');
    expect(constraints[0]?.audio).toMatchObject({
      echoCancellation: true,
      noiseSuppression: true,
      autoGainControl: true,
    });
    const pc = pcs[0];
    expect(pc?.config.iceServers).toEqual([{ urls: ['stun:127.0.0.1:3478'] }]);
    expect(pc?.channels[0]).toMatchObject({ label: 'chat', init: { negotiated: true, id: 0 } });
    expect(controller.getView().chatChannel).toBe(pc?.channels[0]);
    // The order of spec §4: channel and tracks before the remote description, then the answer.
    expect(pc?.calls.indexOf('createDataChannel')).toBeLessThan(
      pc?.calls.indexOf('setRemoteDescription') ?? -1,
    );
    expect(pc?.calls.indexOf('addTrack')).toBeLessThan(
      pc?.calls.indexOf('setRemoteDescription') ?? -1,
    );
    expect(pc?.remoteDescription).toEqual(theirOffer.offer);
    expect(sent).toEqual([
      {
        type: 'answer',
        answer: { type: 'answer', sdp: pc?.localDescription?.sdp },
        meta: { ...meta, email: 'me@example.com' },
      },
    ]);
  });

  it('queues candidates that come before the remote description and adds them after it, in order', async () => {
    const { controller, pcs } = setup();
    controller.handleMessage(candidate(1)); // may overtake its offer
    controller.handleMessage(theirOffer);
    controller.handleMessage(candidate(2));
    expect(controller.queuedCandidates).toBe(2);
    await controller.answer();
    const pc = pcs[0];
    expect(pc?.added.map((c) => c.candidate)).toEqual([
      candidate(1).candidate.candidate,
      candidate(2).candidate.candidate,
    ]);
    expect(controller.queuedCandidates).toBe(0);
    controller.handleMessage(candidate(3));
    await settle();
    expect(pc?.added).toHaveLength(3);
  });

  it('asks for the ICE servers when the call starts to ring, so Answer does not wait for them', async () => {
    const { controller, deps, pcs } = setup();
    controller.handleMessage(theirOffer);
    controller.handleMessage(theirOffer); // the caller's repeated offer asks nothing more
    expect(deps.getIceServers).toHaveBeenCalledTimes(1);
    expect(deps.getIceServers).toHaveBeenCalledWith(MEETING);
    await controller.answer();
    expect(deps.getIceServers).toHaveBeenCalledTimes(1);
    expect(pcs[0]?.config.iceServers).toEqual([{ urls: ['stun:127.0.0.1:3478'] }]);
  });

  it('asks for the ICE servers again on Answer when the request made while ringing failed', async () => {
    const { controller, deps, pcs, sent } = setup();
    vi.mocked(deps.getIceServers).mockRejectedValueOnce(new Error('offline'));
    controller.handleMessage(theirOffer);
    await settle();
    await controller.answer();
    expect(deps.getIceServers).toHaveBeenCalledTimes(2);
    expect(pcs[0]?.config.iceServers).toEqual([{ urls: ['stun:127.0.0.1:3478'] }]);
    expect(sent.map((m) => m.type)).toEqual(['answer']);
  });

  it('shows the remote tracks the offer brings once the answer is on its way', async () => {
    const { controller, deps, sent } = setup();
    const seen: Array<{ answerSent: boolean; remote: MediaStream | null }> = [];
    const create = deps.createPeerConnection;
    deps.createPeerConnection = (config) => {
      const pc = create(config) as unknown as FakePeerConnection;
      const setRemote = pc.setRemoteDescription.bind(pc);
      // As the browser does: the offer's tracks are announced while it is applied.
      pc.setRemoteDescription = async (description) => {
        await setRemote(description);
        pc.remoteTrack(new FakeTrack('video', 'their camera'));
        seen.push({ answerSent: sent.length > 0, remote: controller.getView().remoteStream });
      };
      return pc as unknown as RTCPeerConnection;
    };
    controller.handleMessage(theirOffer);
    await controller.answer();
    expect(seen).toEqual([{ answerSent: false, remote: null }]);
    expect(sent.map((m) => m.type)).toEqual(['answer']);
    expect(controller.getView().remoteStream?.getVideoTracks()).toHaveLength(1);
  });

  it('publishes its own candidates as they appear', async () => {
    const { controller, pcs, sent } = setup();
    controller.handleMessage(theirOffer);
    await controller.answer();
    pcs[0]?.gather('candidate:9 1 udp 1 127.0.0.1 6000 typ host');
    expect(sent.at(-1)).toMatchObject({
      type: 'candidate',
      candidate: {
        candidate: 'candidate:9 1 udp 1 127.0.0.1 6000 typ host',
        sdpMid: '0',
        sdpMLineIndex: 0,
      },
      meta: { meetingId: MEETING, token: TOKEN, sessionId: SESSION },
    });
  });

  it('joins with the microphone when the camera is refused, and says the camera is missing', async () => {
    const { controller, pcs, sent } = setup({ refuse: 'camera' });
    controller.handleMessage(theirOffer);
    await controller.answer();
    const view = controller.getView();
    expect(view.local?.camera).toBe('denied');
    expect(view.local?.microphone).toBeNull();
    expect(view.cameraOff).toBe(true);
    expect(sent[0]?.type).toBe('answer');
    // The offer's video section still sends once a camera or a screen comes.
    const video = pcs[0]?.transceivers.find((t) => t.receiver.track.kind === 'video');
    expect(video?.direction).toBe('sendrecv');
  });

  it('declines: the caller is told, the preview stops, nothing is connected', async () => {
    const { controller, sent, pcs, acquired, phase } = setup();
    controller.handleMessage(theirOffer);
    await controller.preview();
    controller.decline();
    expect(sent).toEqual([{ type: 'decline', meta: { ...meta, email: 'me@example.com' } }]);
    expect(phase()).toBe('declined');
    expect(controller.getView().state.by).toBe('me');
    expect(pcs).toHaveLength(0);
    expect(acquired.every((t) => t.readyState === 'ended')).toBe(true);
  });

  it('is missed when the server says so, and stops ringing', async () => {
    const { controller, acquired, phase } = setup();
    controller.handleMessage(theirOffer);
    await controller.preview();
    controller.handleMessage({
      type: 'meeting.state',
      meetingId: MEETING,
      queueId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      sessionId: SESSION,
      tokenId: TOKEN,
      state: 'missed',
      at: '2026-11-25T16:00:45.000Z',
    });
    expect(phase()).toBe('missed');
    expect(acquired.every((t) => t.readyState === 'ended')).toBe(true);
  });

  it('an exit message stops local tracks, closes the connection and closes the call', async () => {
    const { controller, pcs, acquired, phase } = setup();
    controller.handleMessage(theirOffer);
    await controller.answer();
    pcs[0]?.remoteTrack(new FakeTrack('video', 'their camera'));
    expect(controller.getView().remoteStream).not.toBeNull();
    controller.handleMessage({ type: 'exit', meta });
    expect(phase()).toBe('ended');
    expect(controller.getView().state.by).toBe('other');
    expect(pcs[0]?.closed).toBe(true);
    expect(acquired.every((t) => t.readyState === 'ended')).toBe(true);
    expect(controller.getView().remoteStream).toBeNull();
    expect(controller.getView().chatChannel).toBeNull();
  });

  it('messages of another meeting do not touch this call', async () => {
    const { controller, pcs, phase } = setup();
    controller.handleMessage(theirOffer);
    await controller.answer();
    const otherMeta = { ...meta, meetingId: OTHER_MEETING };
    controller.handleMessage({ type: 'exit', meta: otherMeta });
    controller.handleMessage({ ...theirOffer, meta: otherMeta });
    expect(phase()).toBe('connecting');
    expect(pcs[0]?.closed).toBe(false);
  });
});

describe('CallController: the caller', () => {
  it('offers, repeats the offer while it rings, and connects on the answer', async () => {
    const { controller, pcs, sent, phase } = setup();
    await controller.startCall(call);
    expect(phase()).toBe('ringing-out');
    const pc = pcs[0];
    expect(sent.map((m) => m.type)).toEqual(['offer']);
    expect(pc?.channels.map((c) => [c.label, c.init?.id])).toEqual([
      ['chat', 0],
      ['control', 1],
    ]);
    await vi.advanceTimersByTimeAsync(offerRepeatMs);
    expect(sent.map((m) => m.type)).toEqual(['offer', 'offer']);
    // A candidate of the callee before its answer waits for it.
    controller.handleMessage(candidate(1));
    expect(controller.queuedCandidates).toBe(1);
    controller.handleMessage({
      type: 'answer',
      answer: { type: 'answer', sdp: 'v=0 answer' },
      meta,
    });
    await settle();
    expect(phase()).toBe('connecting');
    expect(pc?.added).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(offerRepeatMs * 3);
    expect(sent.filter((m) => m.type === 'offer')).toHaveLength(2);
    pc?.setIce('connected');
    expect(phase()).toBe('active');
  });

  it('becomes active when ICE connected before the answer was applied', async () => {
    const { controller, pcs, phase } = setup();
    await controller.startCall(call);
    pcs[0]?.setIce('connected'); // the callee's checks arrived first
    expect(phase()).toBe('ringing-out');
    controller.handleMessage({
      type: 'answer',
      answer: { type: 'answer', sdp: 'v=0 answer' },
      meta,
    });
    await settle();
    expect(phase()).toBe('active');
    await vi.advanceTimersByTimeAsync(connectTimeoutMs * 2);
    expect(phase()).toBe('active');
  });

  it('sees the decline and stops its camera', async () => {
    const { controller, acquired, pcs, phase } = setup();
    await controller.startCall(call);
    controller.handleMessage({ type: 'decline', meta });
    expect(phase()).toBe('declined');
    expect(controller.getView().state.by).toBe('other');
    expect(pcs[0]?.closed).toBe(true);
    expect(acquired.every((t) => t.readyState === 'ended')).toBe(true);
  });

  it('Exit tells the other side; without realtime it ends the meeting through the API', async () => {
    const first = setup();
    await first.controller.startCall(call);
    first.controller.exit();
    expect(first.sent.at(-1)?.type).toBe('exit');
    expect(first.phase()).toBe('ended');
    expect(first.deps.endMeeting).not.toHaveBeenCalled();

    const second = setup();
    await second.controller.startCall(call);
    second.setOnline(false);
    second.controller.exit();
    expect(second.deps.endMeeting).toHaveBeenCalledWith(MEETING);
    expect(second.phase()).toBe('ended');
  });

  it('restarts ICE when the connection drops, then says "connection lost"; Rejoin offers on a new connection', async () => {
    const { controller, pcs, sent, phase } = setup();
    await controller.startCall(call);
    controller.handleMessage({
      type: 'answer',
      answer: { type: 'answer', sdp: 'v=0 answer' },
      meta,
    });
    await settle();
    pcs[0]?.setIce('connected');
    pcs[0]?.setIce('disconnected');
    expect(phase()).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(iceRestartDelayMs);
    expect(pcs[0]?.offerOptions.at(-1)).toEqual({ iceRestart: true });
    expect(sent.at(-1)?.type).toBe('offer');
    await vi.advanceTimersByTimeAsync(connectTimeoutMs);
    expect(phase()).toBe('failed');
    expect(controller.getView().state.failure).toBe('connection_lost');
    expect(pcs[0]?.closed).toBe(true);
    // The camera stays on for Rejoin.
    expect(controller.getView().local?.stream.getVideoTracks()[0]?.readyState).toBe('live');
    await controller.rejoin();
    expect(phase()).toBe('connecting');
    expect(pcs).toHaveLength(2);
    expect(sent.at(-1)?.type).toBe('offer');
  });

  it('recovers without "connection lost" when the connection comes back', async () => {
    const { controller, pcs, phase } = setup();
    await controller.startCall(call);
    controller.handleMessage({
      type: 'answer',
      answer: { type: 'answer', sdp: 'v=0 answer' },
      meta,
    });
    await settle();
    pcs[0]?.setIce('connected');
    pcs[0]?.setIce('disconnected');
    pcs[0]?.setIce('connected');
    await vi.advanceTimersByTimeAsync(connectTimeoutMs * 2);
    expect(phase()).toBe('active');
  });
});

describe('CallController: during the call', () => {
  async function inCall() {
    const t = setup();
    t.controller.handleMessage(theirOffer);
    await t.controller.answer();
    t.pcs[0]?.setIce('connected');
    return { ...t, pc: t.pcs[0] as FakePeerConnection };
  }

  it('treats the remote video as off 2000 ms after its track mutes, and on when unmuted', async () => {
    const { controller, pc } = await inCall();
    const video = new FakeTrack('video', 'their camera');
    pc.remoteTrack(video);
    expect(controller.getView().remoteVideoOff).toBe(false);
    video.setMuted(true);
    await vi.advanceTimersByTimeAsync(remoteVideoOffDelayMs - 1);
    expect(controller.getView().remoteVideoOff).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(controller.getView().remoteVideoOff).toBe(true);
    video.setMuted(false);
    expect(controller.getView().remoteVideoOff).toBe(false);
    // A short glitch does not flash the avatar.
    video.setMuted(true);
    await vi.advanceTimersByTimeAsync(500);
    video.setMuted(false);
    await vi.advanceTimersByTimeAsync(remoteVideoOffDelayMs);
    expect(controller.getView().remoteVideoOff).toBe(false);
  });

  it('mute and camera off: the tracks stop sending and the other side is told', async () => {
    const { controller, pc, acquired, deps } = await inCall();
    const control = pc.channels.find((c) => c.label === 'control');
    control?.open();
    controller.toggleMic();
    expect(acquired.find((t) => t.kind === 'audio')?.enabled).toBe(false);
    expect(JSON.parse(control?.sent.at(-1) ?? '{}')).toEqual({
      type: 'media',
      audio: false,
      video: true,
    });
    const camera = acquired.find((t) => t.kind === 'video');
    await controller.toggleCamera();
    expect(camera?.readyState).toBe('ended');
    const videoSender = pc.transceivers.find((t) => t.sender.replaced.length > 0)?.sender;
    expect(videoSender?.track).toBeNull();
    expect(JSON.parse(control?.sent.at(-1) ?? '{}')).toEqual({
      type: 'media',
      audio: false,
      video: false,
    });
    await controller.toggleCamera();
    expect(deps.getUserMedia).toHaveBeenLastCalledWith({ video: expect.any(Object) });
    expect(videoSender?.track?.label).toBe('camera');
    expect(controller.getView().cameraOff).toBe(false);
  });

  it('shows what the other side says about its microphone and camera', async () => {
    const { controller, pc } = await inCall();
    pc.remoteTrack(new FakeTrack('video', 'their camera'));
    pc.channels
      .find((c) => c.label === 'control')
      ?.receive('{"type":"media","audio":false,"video":false}');
    expect(controller.getView()).toMatchObject({ remoteMuted: true, remoteVideoOff: true });
    pc.channels
      .find((c) => c.label === 'control')
      ?.receive('{"type":"media","audio":true,"video":true}');
    expect(controller.getView()).toMatchObject({ remoteMuted: false, remoteVideoOff: false });
  });

  it('shares the screen with replaceTrack and returns to the camera when the share ends', async () => {
    const { controller, pc, acquired } = await inCall();
    await controller.toggleShare();
    expect(controller.getView().sharing).toBe(true);
    const sender = pc.transceivers.find((t) => t.sender.track?.label === 'screen')?.sender;
    expect(sender).toBeDefined();
    acquired.find((t) => t.label === 'screen')?.end(); // the browser's "Stop sharing"
    await settle();
    expect(controller.getView().sharing).toBe(false);
    expect(sender?.track?.label).toBe('camera');
  });

  it('answers an ICE restart on the same connection, and a rejoin of the other side on a new one', async () => {
    const { controller, pc, sent, pcs } = await inCall();
    const restart = {
      ...theirOffer,
      offer: { type: 'offer', sdp: 'v=0\r\na=fingerprint:sha-256 THEIRS\r\na=ice-ufrag:t2\r\n' },
    } as const;
    controller.handleMessage(restart);
    await settle();
    expect(pcs).toHaveLength(1);
    expect(pc.remoteDescription).toEqual(restart.offer);
    expect(sent.at(-1)?.type).toBe('answer');
    // The same offer again (the caller's ring repeat) changes nothing.
    const answers = sent.length;
    controller.handleMessage(restart);
    await settle();
    expect(sent).toHaveLength(answers);
    const fresh = {
      ...theirOffer,
      offer: { type: 'offer', sdp: 'v=0\r\na=fingerprint:sha-256 NEW\r\na=ice-ufrag:n1\r\n' },
    } as const;
    controller.handleMessage(fresh);
    await settle();
    expect(pc.closed).toBe(true);
    expect(pcs).toHaveLength(2);
    expect(pcs[1]?.remoteDescription).toEqual(fresh.offer);
    expect(sent.at(-1)?.type).toBe('answer');
  });
});
