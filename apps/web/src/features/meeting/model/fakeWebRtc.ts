/**
 * Small stand-ins for the WebRTC and media APIs jsdom lacks, enough to drive
 * callController.ts in unit tests (test-only; real calls run in Chromium in e2e/).
 */
let ids = 0;

export class FakeTrack extends EventTarget {
  readonly id = `track-${++ids}`;
  readonly kind: 'audio' | 'video';
  readonly label: string;
  enabled = true;
  muted = false;
  readyState: 'live' | 'ended' = 'live';
  constructor(kind: 'audio' | 'video', label: string = kind) {
    super();
    this.kind = kind;
    this.label = label;
  }
  stop() {
    this.readyState = 'ended';
  }
  /** The browser ends the track (e.g. "Stop sharing" in Chrome's bar). */
  end() {
    this.readyState = 'ended';
    this.dispatchEvent(new Event('ended'));
  }
  setMuted(muted: boolean) {
    this.muted = muted;
    this.dispatchEvent(new Event(muted ? 'mute' : 'unmute'));
  }
}

export class FakeStream {
  readonly tracks: FakeTrack[];
  constructor(tracks: FakeTrack[] = []) {
    this.tracks = [...tracks];
  }
  getTracks() {
    return [...this.tracks];
  }
  getAudioTracks() {
    return this.tracks.filter((t) => t.kind === 'audio');
  }
  getVideoTracks() {
    return this.tracks.filter((t) => t.kind === 'video');
  }
  removeTrack(track: FakeTrack) {
    const index = this.tracks.indexOf(track);
    if (index >= 0) this.tracks.splice(index, 1);
  }
}

export class FakeChannel extends EventTarget {
  readonly label: string;
  readonly init: RTCDataChannelInit | undefined;
  readyState: RTCDataChannelState = 'connecting';
  readonly sent: string[] = [];
  constructor(label: string, init?: RTCDataChannelInit) {
    super();
    this.label = label;
    this.init = init;
  }
  send(data: string) {
    if (this.readyState !== 'open') throw new DOMException('not open', 'InvalidStateError');
    this.sent.push(data);
  }
  close() {
    this.readyState = 'closed';
  }
  open() {
    this.readyState = 'open';
    this.dispatchEvent(new Event('open'));
  }
  receive(data: string) {
    this.dispatchEvent(new MessageEvent('message', { data }));
  }
}

export class FakeSender {
  track: FakeTrack | null;
  readonly replaced: Array<FakeTrack | null> = [];
  constructor(track: FakeTrack | null) {
    this.track = track;
  }
  async replaceTrack(track: FakeTrack | null) {
    this.replaced.push(track);
    this.track = track;
  }
}

export class FakeTransceiver {
  direction: RTCRtpTransceiverDirection;
  readonly sender: FakeSender;
  readonly receiver: { track: FakeTrack };
  constructor(
    kind: 'audio' | 'video',
    direction: RTCRtpTransceiverDirection,
    track: FakeTrack | null,
  ) {
    this.direction = direction;
    this.sender = new FakeSender(track);
    this.receiver = { track: new FakeTrack(kind, `remote ${kind}`) };
  }
}

let fingerprints = 0;

export class FakePeerConnection extends EventTarget {
  readonly config: RTCConfiguration;
  readonly fingerprint = `AA:${++fingerprints}`;
  private ufrag = 1;
  signalingState: RTCSignalingState = 'stable';
  iceConnectionState: RTCIceConnectionState = 'new';
  localDescription: RTCSessionDescriptionInit | null = null;
  remoteDescription: RTCSessionDescriptionInit | null = null;
  readonly channels: FakeChannel[] = [];
  readonly transceivers: FakeTransceiver[] = [];
  readonly added: RTCIceCandidateInit[] = [];
  /** Calls in order, e.g. ['createDataChannel', 'addTrack', 'setRemoteDescription', ...]. */
  readonly calls: string[] = [];
  readonly offerOptions: Array<RTCOfferOptions | undefined> = [];
  closed = false;

  constructor(config: RTCConfiguration) {
    super();
    this.config = config;
  }

  createDataChannel(label: string, init?: RTCDataChannelInit) {
    this.calls.push('createDataChannel');
    const channel = new FakeChannel(label, init);
    this.channels.push(channel);
    return channel;
  }
  addTrack(track: FakeTrack) {
    this.calls.push('addTrack');
    const transceiver = new FakeTransceiver(track.kind, 'sendrecv', track);
    this.transceivers.push(transceiver);
    return transceiver.sender;
  }
  addTransceiver(kind: 'audio' | 'video', init?: RTCRtpTransceiverInit) {
    this.calls.push('addTransceiver');
    const transceiver = new FakeTransceiver(kind, init?.direction ?? 'sendrecv', null);
    this.transceivers.push(transceiver);
    return transceiver;
  }
  getTransceivers() {
    return [...this.transceivers];
  }
  private sdp() {
    return `v=0\r\na=fingerprint:sha-256 ${this.fingerprint}\r\na=ice-ufrag:u${this.ufrag}\r\n`;
  }
  async createOffer(options?: RTCOfferOptions) {
    this.calls.push('createOffer');
    this.offerOptions.push(options);
    if (options?.iceRestart) this.ufrag++;
    return { type: 'offer' as const, sdp: this.sdp() };
  }
  async createAnswer() {
    this.calls.push('createAnswer');
    return { type: 'answer' as const, sdp: this.sdp() };
  }
  async setLocalDescription(description: RTCSessionDescriptionInit) {
    this.calls.push('setLocalDescription');
    this.localDescription = description;
    this.signalingState = description.type === 'offer' ? 'have-local-offer' : 'stable';
  }
  async setRemoteDescription(description: RTCSessionDescriptionInit) {
    this.calls.push('setRemoteDescription');
    this.remoteDescription = description;
    if (description.type === 'offer') {
      this.signalingState = 'have-remote-offer';
      // The offer's audio and video sections: reuse what addTrack made, else receive only.
      for (const kind of ['audio', 'video'] as const) {
        if (!this.transceivers.some((t) => t.receiver.track.kind === kind)) {
          this.transceivers.push(new FakeTransceiver(kind, 'recvonly', null));
        }
      }
    } else {
      this.signalingState = 'stable';
    }
  }
  async addIceCandidate(candidate: RTCIceCandidateInit) {
    if (!this.remoteDescription)
      throw new DOMException('no remote description', 'InvalidStateError');
    this.added.push(candidate);
  }
  close() {
    this.closed = true;
    this.signalingState = 'closed';
  }

  // What the browser does:
  gather(candidate: string) {
    const event = new Event('icecandidate') as Event & { candidate: unknown };
    event.candidate = { candidate, sdpMid: '0', sdpMLineIndex: 0, usernameFragment: 'u1' };
    this.dispatchEvent(event);
  }
  remoteTrack(track: FakeTrack) {
    const event = new Event('track') as Event & { track: FakeTrack };
    event.track = track;
    this.dispatchEvent(event);
  }
  setIce(state: RTCIceConnectionState) {
    this.iceConnectionState = state;
    this.dispatchEvent(new Event('iceconnectionstatechange'));
  }
}
