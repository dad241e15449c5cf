import {
  type CallMessage,
  type MeetingTopicMessage,
  meetingRingMs,
  meetingTopicMessageSchema,
} from '@upnext/contract/meetings';
import {
  type CallEvent,
  type CallRef,
  type CallState,
  callReducer,
  idleCall,
  isLive,
} from './callMachine.ts';
import {
  acquireCamera,
  acquireLocalMedia,
  type DeviceProblem,
  deviceProblem,
  type GetUserMedia,
  type LocalMedia,
} from './media.ts';

/** Spec §9: the remote video counts as off this long after its track is muted. */
export const remoteVideoOffDelayMs = 2000;
/** While ringing, the caller repeats its offer (with the candidates gathered so far). */
export const offerRepeatMs = 5000;
/** A disconnected connection gets this long to come back by itself before an ICE restart. */
export const iceRestartDelayMs = 2000;
/** Connecting (or reconnecting) longer than this: the connection is lost. */
export const connectTimeoutMs = 20_000;
/** If the server's "missed" never arrives (e.g. realtime was down), ringing stops anyway. */
const ringFallbackMs = meetingRingMs + 5000;

/** What the controller needs of the browser and the server (fakes in tests). */
export interface CallDeps {
  /** SEND to /app/call; false when the message could not be sent now. */
  send(message: CallMessage): boolean;
  /** The caller's email (the server overwrites it; the contract asks for the field). */
  email(): string;
  getIceServers(meetingId: string): Promise<RTCIceServer[]>;
  /** Hang up through the API when the message could not be sent. */
  endMeeting(meetingId: string): Promise<unknown>;
  getUserMedia: GetUserMedia;
  getDisplayMedia(): Promise<MediaStream>;
  createPeerConnection(config: RTCConfiguration): RTCPeerConnection;
  createStream(tracks: MediaStreamTrack[]): MediaStream;
}

/** Everything the screens show about the call; a new object on every change. */
export interface CallView {
  state: CallState;
  /** Own camera and microphone (the pre-call check shows them before the call). */
  local: LocalMedia | null;
  /** True while the camera and microphone are being asked for. */
  acquiring: boolean;
  remoteStream: MediaStream | null;
  /** The other side's video is off (its track muted for 2 s, or they said so). */
  remoteVideoOff: boolean;
  /** The other side said they muted their microphone. */
  remoteMuted: boolean;
  micMuted: boolean;
  cameraOff: boolean;
  sharing: boolean;
  /** Turning the camera back on or sharing the screen failed: why. */
  deviceError: DeviceProblem | 'share_failed' | null;
  /** The chat data channel (negotiated, id 0), for the chat drawer. */
  chatChannel: RTCDataChannel | null;
}

const initialView: CallView = {
  state: idleCall,
  local: null,
  acquiring: false,
  remoteStream: null,
  remoteVideoOff: true,
  remoteMuted: false,
  micMuted: false,
  cameraOff: false,
  sharing: false,
  deviceError: null,
  chatChannel: null,
};

/** What the second data channel carries: each side's microphone and camera state. */
interface MediaStateMessage {
  type: 'media';
  audio: boolean;
  video: boolean;
}

function isMediaState(value: unknown): value is MediaStateMessage {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.type === 'media' && typeof v.audio === 'boolean' && typeof v.video === 'boolean';
}

/** The DTLS fingerprint of a description: a new one means the other side started afresh. */
function fingerprintOf(sdp: string | undefined): string | null {
  return /^a=fingerprint:(.+)$/m.exec(sdp ?? '')?.[1]?.trim() ?? null;
}

/** The ICE username fragment: a new one (same fingerprint) is an ICE restart. */
function ufragOf(sdp: string | undefined): string | null {
  return /^a=ice-ufrag:(.+)$/m.exec(sdp ?? '')?.[1]?.trim() ?? null;
}

/** At most this many candidates wait for their remote description. */
const maxQueuedCandidates = 200;

/**
 * One call at a time (spec §4 "Call flow"): the signalling, the peer connection, the local
 * media and the toggles. The state machine (callMachine.ts) decides the phase; this class does
 * the work each phase needs. Screens read `getView()` (through `subscribe`) and call the
 * actions.
 */
export class CallController {
  private readonly deps: CallDeps;
  private view: CallView = initialView;
  private readonly listeners = new Set<() => void>();
  private pc: RTCPeerConnection | null = null;
  private control: RTCDataChannel | null = null;
  private videoSender: RTCRtpSender | null = null;
  private audioSender: RTCRtpSender | null = null;
  private screenTrack: MediaStreamTrack | null = null;
  /** Candidates that came before the remote description (spec §4: added only after it). */
  private pendingCandidates: Array<{ meetingId: string; candidate: RTCIceCandidateInit }> = [];
  /** The other side's media state as they last said it (the control channel). */
  private remoteSaysVideo = true;
  private mediaRequest: Promise<LocalMedia> | null = null;
  /**
   * The ICE servers of a call ringing here, asked for when it starts to ring, so Answer does
   * not wait for a request to the server (used once; a later connection asks afresh).
   */
  private ringingIceServers: { meetingId: string; request: Promise<RTCIceServer[]> } | null = null;
  /**
   * While an answer is being made, the remote tracks the offer brought are held here and shown
   * once the answer is on its way: showing them opens the callee's meeting screen, and that
   * page's work must not delay the answer.
   */
  private held: { pc: RTCPeerConnection; tracks: MediaStreamTrack[] } | null = null;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private offerRepeat: ReturnType<typeof setInterval> | undefined;
  /** Bumped on teardown: async work of a finished call must not touch the next one. */
  private generation = 0;

  constructor(deps: CallDeps) {
    this.deps = deps;
  }

  // --- reading -------------------------------------------------------------------------------

  getView = (): CallView => this.view;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Candidates waiting for a remote description (for tests and diagnostics). */
  get queuedCandidates(): number {
    return this.pendingCandidates.length;
  }

  get peerConnection(): RTCPeerConnection | null {
    return this.pc;
  }

  private update(patch: Partial<CallView>): void {
    this.view = { ...this.view, ...patch };
    for (const listener of this.listeners) listener();
  }

  private dispatch(event: CallEvent): CallState {
    const before = this.view.state;
    const next = callReducer(before, event);
    if (next !== before) {
      this.update({ state: next });
      this.onPhase(before, next);
    }
    return next;
  }

  private onPhase(before: CallState, next: CallState): void {
    if (next.phase === 'ringing-in' || next.phase === 'ringing-out') {
      if (
        next.phase === 'ringing-in' &&
        next.call &&
        before.call?.meetingId !== next.call.meetingId
      )
        this.prefetchIceServers(next.call.meetingId);
      if (before.phase !== next.phase) {
        this.setTimer('ring', ringFallbackMs, () => {
          const call = this.view.state.call;
          if (call)
            this.dispatch({ type: 'server-state', meetingId: call.meetingId, state: 'missed' });
        });
      }
    } else {
      this.clearTimer('ring');
    }
    if (next.phase !== 'ringing-out') this.stopOfferRepeat();
    // Connecting (after the answer, not while it rings) has a limit; so has reconnecting.
    if (next.phase === 'connecting' || next.phase === 'reconnecting') {
      if (before.phase !== next.phase) this.startConnectTimer();
    } else {
      this.clearTimer('connect');
    }
    if (isLive(before.phase) && !isLive(next.phase)) {
      // Declined, missed, ended: media off, connection closed; a failure keeps the camera for Rejoin.
      this.teardown(next.phase !== 'failed');
    }
  }

  // --- signalling in -------------------------------------------------------------------------

  /** A message of the user's `/topic/meeting/{subscribeId}` (call messages and state events). */
  handleMessage(body: unknown): void {
    const parsed = meetingTopicMessageSchema.safeParse(body);
    if (!parsed.success) return;
    const message: MeetingTopicMessage = parsed.data;
    if (message.type === 'meeting.state') {
      this.dispatch({ type: 'server-state', meetingId: message.meetingId, state: message.state });
      return;
    }
    const meetingId = message.meta.meetingId;
    if (!meetingId) return;
    const ref: CallRef = {
      meetingId,
      sessionId: message.meta.sessionId,
      tokenId: message.meta.token,
    };
    const current = this.view.state;
    const mine = current.call?.meetingId === meetingId;
    switch (message.type) {
      case 'offer':
        if (mine && this.pc && isLive(current.phase) && current.phase !== 'ringing-in') {
          void this.onRenegotiation(message.offer);
        } else if (mine && current.phase === 'failed') {
          // The other side pressed Rejoin: answer on a fresh connection.
          this.dispatch({ type: 'rejoin' });
          void this.connect(ref, message.offer);
        } else {
          this.dispatch({
            type: 'offer-received',
            call: ref,
            offer: message.offer,
            from: message.meta.email,
          });
        }
        return;
      case 'answer':
        if (mine) void this.onAnswer(message.answer);
        return;
      case 'candidate':
        void this.onCandidate(meetingId, message.candidate);
        return;
      case 'exit':
        if (mine) this.dispatch({ type: 'exit-received' });
        return;
      case 'decline':
        if (mine) this.dispatch({ type: 'decline-received' });
        return;
    }
  }

  private async onAnswer(answer: RTCSessionDescriptionInit): Promise<void> {
    const pc = this.pc;
    if (pc?.signalingState !== 'have-local-offer') return;
    const generation = this.generation;
    try {
      await pc.setRemoteDescription(answer);
    } catch {
      if (generation === this.generation) this.dispatch({ type: 'failed', reason: 'setup' });
      return;
    }
    if (generation !== this.generation) return;
    this.dispatch({ type: 'answer-received' });
    // ICE may already be up (peer-reflexive checks from the callee can win the race).
    this.onIceState(pc);
    await this.flushCandidates(pc);
  }

  private async onCandidate(meetingId: string, candidate: RTCIceCandidateInit): Promise<void> {
    const pc = this.pc;
    if (!pc?.remoteDescription || this.view.state.call?.meetingId !== meetingId) {
      // Before the remote description (or before the offer it belongs to): kept, not dropped.
      if (this.pendingCandidates.length < maxQueuedCandidates) {
        this.pendingCandidates.push({ meetingId, candidate });
      }
      return;
    }
    try {
      await pc.addIceCandidate(candidate);
    } catch {
      // A candidate of an earlier ICE generation: harmless, logged only (spec §8).
    }
  }

  /**
   * The queued candidates, all handed over at once: the connection applies them in order (its
   * operations chain), while awaiting each would cost a turn of the page's busy main thread.
   */
  private async flushCandidates(pc: RTCPeerConnection): Promise<void> {
    const meetingId = this.view.state.call?.meetingId;
    const queued = this.pendingCandidates.filter((entry) => entry.meetingId === meetingId);
    this.pendingCandidates = [];
    await Promise.all(
      queued.map(({ candidate }) =>
        pc.addIceCandidate(candidate).catch(() => {
          // as above
        }),
      ),
    );
  }

  /** An offer during the call: an ICE restart of the other side, or the other side rejoining. */
  private async onRenegotiation(offer: RTCSessionDescriptionInit): Promise<void> {
    const pc = this.pc;
    const call = this.view.state.call;
    if (!pc || !call) return;
    const known = pc.remoteDescription?.sdp ?? this.view.state.offer?.sdp;
    const rejoined = fingerprintOf(offer.sdp) !== fingerprintOf(known);
    // The caller's repeated ring offer, arriving after Answer: nothing new.
    if (!rejoined && ufragOf(offer.sdp) === ufragOf(known)) return;
    if (!rejoined && pc.signalingState !== 'stable') return;
    if (rejoined) {
      // Their old connection is gone: answer on a fresh one, keeping our media.
      this.closeConnection();
      this.dispatch({ type: 'rejoin' });
      await this.connect(call, offer);
      return;
    }
    const generation = this.generation;
    try {
      await pc.setRemoteDescription(offer);
      await this.flushCandidates(pc);
      const answer = await pc.createAnswer();
      await pc.setLocalDescription(answer);
      if (generation !== this.generation) return;
      this.sendCall({ type: 'answer', answer: { type: 'answer', sdp: answer.sdp ?? '' } });
    } catch {
      if (generation === this.generation)
        this.dispatch({ type: 'failed', reason: 'connection_lost' });
    }
  }

  // --- actions -------------------------------------------------------------------------------

  /** The pre-call check: camera and microphone once, kept for the call. */
  preview(): Promise<LocalMedia> {
    if (this.view.local) return Promise.resolve(this.view.local);
    if (!this.mediaRequest) {
      const generation = this.generation;
      this.update({ acquiring: true });
      this.mediaRequest = acquireLocalMedia(this.deps.getUserMedia, this.deps.createStream).then(
        (local) => {
          if (generation !== this.generation) {
            for (const track of local.stream.getTracks()) track.stop();
            return local;
          }
          this.update({ local, acquiring: false, cameraOff: local.camera !== null });
          return local;
        },
      );
    }
    return this.mediaRequest;
  }

  /** Staff ring the visitor: an offer, repeated while it rings. */
  async startCall(call: CallRef): Promise<void> {
    const state = this.dispatch({ type: 'call-started', call });
    if (state.phase !== 'ringing-out' || state.call?.meetingId !== call.meetingId) return;
    await this.connect(call, null);
  }

  /** Spec §4 "Answer". */
  async answer(): Promise<void> {
    const { phase, offer, call } = this.view.state;
    if (phase !== 'ringing-in' || !offer || !call) return;
    this.dispatch({ type: 'answer-clicked' });
    await this.connect(call, offer);
  }

  /** Decline: the ringing stops and the caller is told. */
  decline(): void {
    const call = this.view.state.call;
    if (this.view.state.phase !== 'ringing-in' || !call) return;
    this.sendCall({ type: 'decline' });
    this.dispatch({ type: 'decline-clicked' });
    this.releaseMedia();
  }

  /** Hang up: the other side is told, local tracks stop, the connection closes. */
  exit(): void {
    const { phase, call } = this.view.state;
    if (call && (isLive(phase) || phase === 'failed')) {
      if (!this.sendCall({ type: 'exit' }))
        void this.deps.endMeeting(call.meetingId).catch(() => {});
    }
    if (isLive(phase)) this.dispatch({ type: 'exit-clicked' });
    else this.dismiss();
  }

  /** Leave a finished call's screen (or the pre-call check) and release everything. */
  dismiss(): void {
    if (isLive(this.view.state.phase)) return;
    this.teardown(true);
    this.view = { ...initialView };
    for (const listener of this.listeners) listener();
  }

  /** After "Connection lost": a fresh connection, offered by this side. */
  async rejoin(call?: CallRef): Promise<void> {
    const target = call ?? this.view.state.call;
    if (!target) return;
    if (this.view.state.phase === 'failed') {
      this.closeConnection();
      this.dispatch({ type: 'rejoin' });
    } else if (this.view.state.phase === 'idle') {
      // A reload during an active call: this tab rejoins it.
      this.update({
        state: { ...idleCall, phase: 'connecting', call: target, role: 'caller' },
      });
    } else {
      return;
    }
    await this.connect(target, null);
  }

  toggleMic(): void {
    const muted = !this.view.micMuted;
    for (const track of this.view.local?.stream.getAudioTracks() ?? []) track.enabled = !muted;
    this.update({ micMuted: muted });
    this.sendMediaState();
  }

  async toggleCamera(): Promise<void> {
    const local = this.view.local;
    if (!local) return;
    if (!this.view.cameraOff) {
      // Off means off: the track stops, so the camera's light goes out.
      for (const track of local.stream.getVideoTracks()) {
        track.stop();
        local.stream.removeTrack(track);
      }
      if (!this.screenTrack) await this.videoSender?.replaceTrack(null);
      this.update({
        cameraOff: true,
        local: { ...local, stream: this.deps.createStream(local.stream.getTracks()) },
      });
      this.sendMediaState();
      return;
    }
    try {
      const track = await acquireCamera(this.deps.getUserMedia);
      const current = this.view.local ?? local;
      const stream = this.deps.createStream([...current.stream.getAudioTracks(), track]);
      if (!this.screenTrack) await this.videoSender?.replaceTrack(track);
      this.update({
        cameraOff: false,
        deviceError: null,
        local: { ...current, stream, camera: null },
      });
      this.sendMediaState();
    } catch (error) {
      this.update({ deviceError: deviceProblem(error) });
    }
  }

  /** Screen share with replaceTrack; when the share ends (here or by the browser) the camera returns. */
  async toggleShare(): Promise<void> {
    if (this.screenTrack) {
      await this.stopShare();
      return;
    }
    let track: MediaStreamTrack | undefined;
    try {
      track = (await this.deps.getDisplayMedia()).getVideoTracks()[0];
    } catch {
      // Cancelled in the browser's picker, or refused: nothing changes.
      return;
    }
    if (!track) return;
    if (!this.videoSender) {
      track.stop();
      this.update({ deviceError: 'share_failed' });
      return;
    }
    this.screenTrack = track;
    track.addEventListener('ended', () => void this.stopShare());
    await this.videoSender.replaceTrack(track);
    this.update({ sharing: true, deviceError: null });
    this.sendMediaState();
  }

  private async stopShare(): Promise<void> {
    const track = this.screenTrack;
    if (!track) return;
    this.screenTrack = null;
    track.stop();
    const camera = this.view.local?.stream.getVideoTracks()[0] ?? null;
    await this.videoSender?.replaceTrack(this.view.cameraOff ? null : camera);
    this.update({ sharing: false });
    this.sendMediaState();
  }

  // --- the connection ------------------------------------------------------------------------

  private sendCall(body: Pick<CallMessage, 'type'> & Record<string, unknown>): boolean {
    const call = this.view.state.call;
    if (!call) return false;
    const message = {
      ...body,
      meta: {
        sessionId: call.sessionId,
        token: call.tokenId,
        email: this.deps.email(),
        meetingId: call.meetingId,
      },
    } as CallMessage;
    return this.deps.send(message);
  }

  /**
   * Builds the peer connection and sends the offer (`remoteOffer` null: this side offers) or
   * the answer to `remoteOffer`.
   */
  private async connect(
    call: CallRef,
    remoteOffer: RTCSessionDescriptionInit | null,
  ): Promise<void> {
    const generation = this.generation;
    const stale = () =>
      generation !== this.generation || this.view.state.call?.meetingId !== call.meetingId;
    let pc: RTCPeerConnection | undefined;
    try {
      const [local, iceServers] = await Promise.all([
        this.preview(),
        this.iceServersFor(call.meetingId),
      ]);
      if (stale()) return;
      pc = this.deps.createPeerConnection({ iceServers });
      this.pc = pc;
      this.wire(pc, generation);
      // Both sides create the same negotiated channels: no ondatachannel race.
      const chat = pc.createDataChannel('chat', { negotiated: true, id: 0 });
      this.control = pc.createDataChannel('control', { negotiated: true, id: 1 });
      this.control.addEventListener('open', () => this.sendMediaState());
      this.control.addEventListener('message', (event: MessageEvent) => this.onControl(event.data));
      this.update({ chatChannel: chat });
      this.addLocalTracks(pc, local, remoteOffer === null);
      if (remoteOffer) {
        this.held = { pc, tracks: [] };
        await pc.setRemoteDescription(remoteOffer);
        if (stale()) return;
        this.bindSenders(pc);
        // Remote candidates do not change the answer: they go in while it is made.
        const flushed = this.flushCandidates(pc);
        const answer = await pc.createAnswer();
        await pc.setLocalDescription(answer);
        if (stale()) return;
        this.sendCall({ type: 'answer', answer: { type: 'answer', sdp: answer.sdp ?? '' } });
        this.releaseHeldTracks(pc);
        await flushed;
      } else {
        const offer = await pc.createOffer();
        await pc.setLocalDescription(offer);
        if (stale()) return;
        this.sendCall({ type: 'offer', offer: { type: 'offer', sdp: offer.sdp ?? '' } });
        if (this.view.state.phase === 'ringing-out') this.startOfferRepeat(pc);
      }
    } catch {
      if (!stale()) this.dispatch({ type: 'failed', reason: 'setup' });
    } finally {
      if (pc) this.releaseHeldTracks(pc);
    }
  }

  private releaseHeldTracks(pc: RTCPeerConnection): void {
    const held = this.held;
    if (held?.pc !== pc) return;
    this.held = null;
    if (this.pc !== pc) return;
    for (const track of held.tracks) this.onRemoteTrack(track);
  }

  /** A call rings here: its ICE servers are asked for now (a failure is asked again on Answer). */
  private prefetchIceServers(meetingId: string): void {
    const request = this.deps.getIceServers(meetingId);
    void request.catch(() => {});
    this.ringingIceServers = { meetingId, request };
  }

  private iceServersFor(meetingId: string): Promise<RTCIceServer[]> {
    const ringing = this.ringingIceServers;
    this.ringingIceServers = null;
    if (ringing?.meetingId !== meetingId) return this.deps.getIceServers(meetingId);
    return ringing.request.catch(() => this.deps.getIceServers(meetingId));
  }

  /** Own tracks into the connection; a missing camera still gets a video sender (screen share). */
  private addLocalTracks(pc: RTCPeerConnection, local: LocalMedia, offering: boolean): void {
    const stream = local.stream;
    const audio = stream.getAudioTracks()[0];
    const video = this.view.cameraOff ? undefined : stream.getVideoTracks()[0];
    if (audio) {
      audio.enabled = !this.view.micMuted;
      this.audioSender = pc.addTrack(audio, stream);
    }
    if (video) this.videoSender = pc.addTrack(video, stream);
    if (offering) {
      // The offerer asks for both kinds even without a device of its own.
      if (!audio) this.audioSender = pc.addTransceiver('audio', { direction: 'sendrecv' }).sender;
      if (!video) this.videoSender = pc.addTransceiver('video', { direction: 'sendrecv' }).sender;
    }
  }

  /** After the remote offer: the transceivers it made send too (a device added later fits in). */
  private bindSenders(pc: RTCPeerConnection): void {
    for (const transceiver of pc.getTransceivers()) {
      const kind = transceiver.receiver.track?.kind;
      if (transceiver.direction === 'recvonly') transceiver.direction = 'sendrecv';
      if (kind === 'video' && !this.videoSender) this.videoSender = transceiver.sender;
      if (kind === 'audio' && !this.audioSender) this.audioSender = transceiver.sender;
    }
  }

  private wire(pc: RTCPeerConnection, generation: number): void {
    const current = () => generation === this.generation && this.pc === pc;
    pc.addEventListener('icecandidate', (event: RTCPeerConnectionIceEvent) => {
      if (!current() || !event.candidate) return;
      const c = event.candidate;
      this.sendCall({
        type: 'candidate',
        candidate: {
          candidate: c.candidate,
          sdpMid: c.sdpMid ?? null,
          sdpMLineIndex: c.sdpMLineIndex ?? null,
          usernameFragment: c.usernameFragment ?? null,
        },
      });
    });
    pc.addEventListener('track', (event: RTCTrackEvent) => {
      if (!current()) return;
      if (this.held?.pc === pc) this.held.tracks.push(event.track);
      else this.onRemoteTrack(event.track);
    });
    pc.addEventListener('iceconnectionstatechange', () => {
      if (current()) this.onIceState(pc);
    });
  }

  private onRemoteTrack(track: MediaStreamTrack): void {
    const others = this.view.remoteStream?.getTracks().filter((t) => t.kind !== track.kind) ?? [];
    const remoteStream = this.deps.createStream([...others, track]);
    if (track.kind !== 'video') {
      this.update({ remoteStream });
      return;
    }
    // Spec §4: off 2 s after the track is muted; on when unmuted or ended.
    const off = () =>
      this.setTimer('remote-video', remoteVideoOffDelayMs, () =>
        this.update({ remoteVideoOff: true }),
      );
    const on = () => {
      this.clearTimer('remote-video');
      this.update({ remoteVideoOff: !this.remoteSaysVideo });
    };
    track.addEventListener('mute', off);
    track.addEventListener('unmute', on);
    track.addEventListener('ended', on);
    this.update({ remoteStream });
    if (track.muted) off();
    else on();
  }

  private onIceState(pc: RTCPeerConnection): void {
    const ice = pc.iceConnectionState;
    if (ice === 'connected' || ice === 'completed') {
      this.clearTimer('connect');
      this.clearTimer('ice-restart');
      this.dispatch({ type: 'connected' });
      return;
    }
    if (ice === 'disconnected' || ice === 'failed') {
      const before = this.view.state.phase;
      this.dispatch({ type: 'disconnected' });
      if (this.view.state.phase !== 'reconnecting' && before !== 'reconnecting') return;
      // The side that rang restarts ICE (both doing it would cross offers).
      if (this.view.state.role === 'caller') {
        this.setTimer(
          'ice-restart',
          ice === 'failed' ? 0 : iceRestartDelayMs,
          () => void this.restartIce(pc),
        );
      }
    }
  }

  private async restartIce(pc: RTCPeerConnection): Promise<void> {
    if (this.pc !== pc || pc.signalingState !== 'stable') return;
    const generation = this.generation;
    try {
      const offer = await pc.createOffer({ iceRestart: true });
      await pc.setLocalDescription(offer);
      if (generation !== this.generation) return;
      this.sendCall({ type: 'offer', offer: { type: 'offer', sdp: offer.sdp ?? '' } });
    } catch {
      // The connect timer turns this into "Connection lost".
    }
  }

  private startConnectTimer(): void {
    this.setTimer('connect', connectTimeoutMs, () =>
      this.dispatch({ type: 'failed', reason: 'connection_lost' }),
    );
  }

  private startOfferRepeat(pc: RTCPeerConnection): void {
    this.stopOfferRepeat();
    this.offerRepeat = setInterval(() => {
      const description = pc.localDescription;
      if (this.pc !== pc || this.view.state.phase !== 'ringing-out' || !description) {
        this.stopOfferRepeat();
        return;
      }
      this.sendCall({ type: 'offer', offer: { type: 'offer', sdp: description.sdp } });
    }, offerRepeatMs);
  }

  private stopOfferRepeat(): void {
    clearInterval(this.offerRepeat);
    this.offerRepeat = undefined;
  }

  private onControl(data: unknown): void {
    let parsed: unknown;
    try {
      parsed = typeof data === 'string' ? JSON.parse(data) : null;
    } catch {
      return;
    }
    if (!isMediaState(parsed)) return;
    this.remoteSaysVideo = parsed.video;
    this.update({ remoteMuted: !parsed.audio });
    if (!parsed.video) {
      this.clearTimer('remote-video');
      this.update({ remoteVideoOff: true });
    } else if (this.view.remoteStream?.getVideoTracks().some((t) => !t.muted)) {
      this.update({ remoteVideoOff: false });
    }
  }

  private sendMediaState(): void {
    const channel = this.control;
    if (channel?.readyState !== 'open') return;
    const hasAudio = Boolean(this.view.local?.stream.getAudioTracks().length);
    const message: MediaStateMessage = {
      type: 'media',
      audio: hasAudio && !this.view.micMuted,
      video:
        this.view.sharing ||
        (!this.view.cameraOff && Boolean(this.view.local?.stream.getVideoTracks().length)),
    };
    try {
      channel.send(JSON.stringify(message));
    } catch {
      // The channel closed meanwhile (spec §8: logged only).
    }
  }

  // --- teardown ------------------------------------------------------------------------------

  private closeConnection(): void {
    this.generation++;
    this.held = null;
    this.ringingIceServers = null;
    this.stopOfferRepeat();
    for (const name of ['connect', 'ice-restart', 'remote-video']) this.clearTimer(name);
    this.control?.close();
    this.view.chatChannel?.close();
    this.control = null;
    this.pc?.close();
    this.pc = null;
    this.videoSender = null;
    this.audioSender = null;
    this.remoteSaysVideo = true;
    this.update({
      remoteStream: null,
      remoteVideoOff: true,
      remoteMuted: false,
      chatChannel: null,
    });
  }

  private releaseMedia(): void {
    this.screenTrack?.stop();
    this.screenTrack = null;
    for (const track of this.view.local?.stream.getTracks() ?? []) track.stop();
    this.mediaRequest = null;
    this.update({
      local: null,
      acquiring: false,
      sharing: false,
      cameraOff: false,
      micMuted: false,
    });
  }

  /** Spec §4 "exit": stop local tracks, close the connection. */
  private teardown(releaseMedia: boolean): void {
    this.closeConnection();
    if (releaseMedia) this.releaseMedia();
  }

  private setTimer(name: string, ms: number, run: () => void): void {
    this.clearTimer(name);
    this.timers.set(
      name,
      setTimeout(() => {
        this.timers.delete(name);
        run();
      }, ms),
    );
  }

  private clearTimer(name: string): void {
    clearTimeout(this.timers.get(name));
    this.timers.delete(name);
  }
}
