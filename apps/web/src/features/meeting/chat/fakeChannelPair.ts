import type { ChatChannel } from './chatSession.ts';

/**
 * Two linked fake data channels for tests, with the behaviour of RTCDataChannel that file
 * transfer depends on: `send()` copies the data, adds it to `bufferedAmount` and throws
 * (OperationError) once more than 16 MiB would be queued, or (InvalidStateError) unless open;
 * the "network" delivers a limited number of bytes per macrotask, in order, lowering
 * `bufferedAmount` and firing `bufferedamountlow` when it falls to the threshold or below.
 */
export const FAKE_SEND_QUEUE_LIMIT = 16 * 1024 * 1024;

interface Packet {
  data: string | ArrayBuffer;
  size: number;
}

export class FakeDataChannel extends EventTarget implements ChatChannel {
  readyState: RTCDataChannelState = 'connecting';
  bufferedAmount = 0;
  bufferedAmountLowThreshold = 0;
  binaryType: BinaryType = 'blob';
  /** The most bytes ever queued at once (a test checks flow control with it). */
  maxBufferedAmount = 0;
  peer!: FakeDataChannel;
  private readonly queue: Packet[] = [];
  private scheduled = false;
  private readonly bytesPerTick: number;
  private readonly tamper: ((data: ArrayBuffer) => ArrayBuffer) | undefined;

  constructor(bytesPerTick: number, tamper?: (data: ArrayBuffer) => ArrayBuffer) {
    super();
    this.bytesPerTick = bytesPerTick;
    this.tamper = tamper;
  }

  send(data: string | ArrayBuffer | ArrayBufferView<ArrayBuffer>): void {
    if (this.readyState !== 'open') {
      throw new DOMException('RTCDataChannel.readyState is not open', 'InvalidStateError');
    }
    let packet: Packet;
    if (typeof data === 'string') {
      packet = { data, size: new TextEncoder().encode(data).byteLength };
    } else {
      const bytes = ArrayBuffer.isView(data)
        ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
        : new Uint8Array(data);
      packet = { data: bytes.slice().buffer, size: bytes.byteLength };
    }
    if (this.bufferedAmount + packet.size > FAKE_SEND_QUEUE_LIMIT) {
      throw new DOMException('RTCDataChannel send queue is full', 'OperationError');
    }
    this.bufferedAmount += packet.size;
    this.maxBufferedAmount = Math.max(this.maxBufferedAmount, this.bufferedAmount);
    this.queue.push(packet);
    this.schedule();
  }

  /** Both ends close, as when the peer connection goes away. */
  close(): void {
    for (const end of [this, this.peer]) {
      if (end.readyState === 'closed') continue;
      end.readyState = 'closed';
      end.queue.length = 0;
      end.bufferedAmount = 0;
      setTimeout(() => end.dispatchEvent(new Event('close')));
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => this.deliver());
  }

  private deliver(): void {
    this.scheduled = false;
    if (this.readyState !== 'open') return;
    const before = this.bufferedAmount;
    let budget = this.bytesPerTick;
    while (this.queue.length > 0 && budget > 0) {
      const packet = this.queue.shift() as Packet;
      budget -= packet.size;
      this.bufferedAmount -= packet.size;
      const data =
        typeof packet.data === 'string' || !this.tamper ? packet.data : this.tamper(packet.data);
      const delivered =
        typeof data !== 'string' && this.peer.binaryType === 'blob' ? new Blob([data]) : data;
      this.peer.dispatchEvent(new MessageEvent('message', { data: delivered }));
    }
    if (
      before > this.bufferedAmountLowThreshold &&
      this.bufferedAmount <= this.bufferedAmountLowThreshold
    ) {
      this.dispatchEvent(new Event('bufferedamountlow'));
    }
    if (this.queue.length > 0) this.schedule();
  }
}

/** A linked pair, open on the next macrotask unless `open: false` (then call `openPair`). */
export function fakeChannelPair(
  options: {
    bytesPerTick?: number;
    open?: boolean;
    tamper?: (data: ArrayBuffer) => ArrayBuffer;
  } = {},
): [FakeDataChannel, FakeDataChannel] {
  const bytesPerTick = options.bytesPerTick ?? 1024 * 1024;
  const a = new FakeDataChannel(bytesPerTick, options.tamper);
  const b = new FakeDataChannel(bytesPerTick, options.tamper);
  a.peer = b;
  b.peer = a;
  if (options.open !== false) openPair(a);
  return [a, b];
}

export function openPair(channel: FakeDataChannel): void {
  for (const end of [channel, channel.peer]) {
    end.readyState = 'open';
    setTimeout(() => end.dispatchEvent(new Event('open')));
  }
}
