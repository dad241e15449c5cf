import {
  chatFileChunkBytes,
  chatFileMaxBytes,
  chatMessageMaxLength,
} from '@upnext/contract/meetings';
import { z } from 'zod';

/**
 * Chat and file transfer over the call's data channel (spec §3, §5; PRODUCT.md "Meetings"),
 * peer to peer: nothing here touches the server. Framework-free, so the same code runs in the
 * browser on an RTCDataChannel and in unit tests on a fake pair of channels.
 *
 * Wire protocol (the channel must be ordered and reliable, the default of `createDataChannel`):
 * - strings are JSON control messages, validated on arrival (`wireSchema`);
 * - binary messages are chunks (16384 bytes, the last one shorter) of the one file the other
 *   side is sending now. Each side sends its files one after another, so with an ordered
 *   channel a chunk always belongs to the last `file-start` received.
 *
 * A file: `file-start` {id, name, size, mime} → chunks → `file-end` {id, sha256}; the receiver
 * checks size and SHA-256 and answers `file-done` {id, ok}. Either side may `file-cancel` it
 * (`side` says whose transfer it was for the receiver of the message: the sender cancelling
 * its own file, or the receiver refusing or cancelling it).
 */

/** The part of RTCDataChannel the chat uses. */
export interface ChatChannel {
  readonly readyState: RTCDataChannelState;
  readonly bufferedAmount: number;
  bufferedAmountLowThreshold: number;
  binaryType: BinaryType;
  send(data: string | ArrayBuffer | ArrayBufferView<ArrayBuffer>): void;
  addEventListener(type: ChatChannelEvent, listener: (event: Event) => void): void;
  removeEventListener(type: ChatChannelEvent, listener: (event: Event) => void): void;
}
type ChatChannelEvent = 'open' | 'close' | 'message' | 'bufferedamountlow';

type ChatSender = 'me' | 'other';

/** Spec §3's chat message, with a local id (for lists) and, for a file, its transfer. */
export interface ChatMessage {
  id: string;
  msg: string;
  sender: ChatSender;
  type: 'text' | 'file';
  transferId?: string;
}

type TransferStatus =
  | 'queued'
  | 'sending'
  | 'receiving'
  | 'verifying'
  | 'complete'
  | 'cancelled'
  | 'failed';

type TransferFailure =
  /** The data channel closed before the file was through. */
  | 'channel_closed'
  /** What arrived does not have the SHA-256 the sender computed (reported on both sides). */
  | 'hash_mismatch'
  /** Announced larger than `chatFileMaxBytes`: refused. */
  | 'too_large'
  /** The other side broke the protocol (more bytes than announced, a missing end, ...). */
  | 'protocol'
  /** This side could not read, send or check the file. */
  | 'local_error';

export interface FileTransfer {
  id: string;
  direction: 'out' | 'in';
  name: string;
  size: number;
  mime: string;
  /** Bytes that have left this side (sending: queued minus still buffered) or arrived. */
  bytes: number;
  status: TransferStatus;
  cancelledBy?: ChatSender;
  failure?: TransferFailure;
  /** A received file, checked: an object URL to download it, revoked when the chat is disposed. */
  url?: string;
}

export type SendRefusal = 'empty' | 'too_long' | 'not_open' | 'too_large';
export type SendResult = { ok: true; id: string } | { ok: false; reason: SendRefusal };

export interface ChatSnapshot {
  open: boolean;
  messages: readonly ChatMessage[];
  transfers: readonly FileTransfer[];
}

/** Files are read in blocks of this size and sliced into chunks (one read per block is faster). */
const READ_BLOCK_BYTES = 1024 * 1024;
/** Sending pauses above this many queued bytes (a channel fails at about 16 MiB)... */
const HIGH_WATER_BYTES = 8 * 1024 * 1024;
/** ...and resumes when `bufferedamountlow` says the queue fell to this. */
const LOW_WATER_BYTES = 1024 * 1024;
/** A string longer than this is not one of our control messages. */
const MAX_CONTROL_CHARS = 64 * 1024;
/** How often a sending side looks at what is still buffered, for its progress. */
const SENT_POLL_MS = 200;
/** The chat keeps this many messages. */
const MAX_MESSAGES = 500;
const MAX_NAME_CHARS = 255;
const FALLBACK_MIME = 'application/octet-stream';

const wireId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\w-]+$/);
const wireSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), msg: z.string().min(1).max(chatMessageMaxLength) }),
  z.object({
    type: z.literal('file-start'),
    id: wireId,
    name: z.string().max(1024),
    size: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
    mime: z.string().max(1024),
  }),
  z.object({
    type: z.literal('file-end'),
    id: wireId,
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  z.object({
    type: z.literal('file-cancel'),
    id: wireId,
    side: z.enum(['sender', 'receiver']),
    reason: z.enum(['cancelled', 'too_large', 'failed']),
  }),
  z.object({ type: z.literal('file-done'), id: wireId, ok: z.boolean() }),
]);
type WireMessage = z.infer<typeof wireSchema>;

interface Outgoing {
  view: FileTransfer;
  wireId: string;
  file: Blob;
  aborted: boolean;
  /** Bytes handed to the channel; `view.bytes` is what has left it (minus what is buffered). */
  queued: number;
  /** All chunks and the end are queued. */
  ended: boolean;
}

interface Incoming {
  view: FileTransfer;
  wireId: string;
  buffer: Uint8Array<ArrayBuffer>;
}

export interface ChatSessionOptions {
  /** Messages of an earlier channel of the same meeting, shown before the new ones. */
  history?: readonly ChatMessage[];
  createObjectURL?: (blob: Blob) => string;
  revokeObjectURL?: (url: string) => void;
}

const FINAL: readonly TransferStatus[] = ['complete', 'cancelled', 'failed'];

function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

async function sha256(data: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(await crypto.subtle.digest('SHA-256', data));
}

/** A file name safe to show and to offer as a download name: no paths, no control characters. */
function safeName(raw: string): string {
  let name = '';
  for (const char of raw) {
    const code = char.codePointAt(0) ?? 0;
    name += code < 32 || code === 127 || char === '/' || char === '\\' ? '_' : char;
  }
  name = name.trim().slice(0, MAX_NAME_CHARS);
  return name && name !== '.' && name !== '..' ? name : 'file';
}

function safeMime(raw: string): string {
  return raw.length <= 127 && /^[\w.+-]+\/[\w.+-]+$/.test(raw) ? raw.toLowerCase() : FALLBACK_MIME;
}

/** One chat over one data channel. Call `dispose()` when the channel is replaced or the call ends. */
export class ChatSession {
  private readonly channel: ChatChannel;
  private readonly createObjectURL: (blob: Blob) => string;
  private readonly revokeObjectURL: (url: string) => void;
  private messages: ChatMessage[];
  private readonly transfers = new Map<string, FileTransfer>();
  private readonly outgoing = new Map<string, Outgoing>();
  private readonly sendQueue: Outgoing[] = [];
  private incoming: Incoming | null = null;
  /** Received files whose SHA-256 is being computed, by wire id (a cancel still applies). */
  private readonly checking = new Map<string, FileTransfer>();
  private pumping = false;
  private disposed = false;
  private drainWaiters: (() => void)[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly incomingListeners = new Set<(message: ChatMessage) => void>();
  private snapshotCache: ChatSnapshot | null = null;
  private nextLocalId = 1;
  private readonly urls: string[] = [];

  constructor(channel: ChatChannel, options: ChatSessionOptions = {}) {
    this.channel = channel;
    this.createObjectURL = options.createObjectURL ?? ((blob) => URL.createObjectURL(blob));
    this.revokeObjectURL = options.revokeObjectURL ?? ((url) => URL.revokeObjectURL(url));
    this.messages = [...(options.history ?? [])];
    channel.binaryType = 'arraybuffer';
    channel.bufferedAmountLowThreshold = LOW_WATER_BYTES;
    channel.addEventListener('open', this.onOpen);
    channel.addEventListener('close', this.onClose);
    channel.addEventListener('message', this.onMessage);
    channel.addEventListener('bufferedamountlow', this.wake);
  }

  /** For `useSyncExternalStore`: called on every change. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The current state; the same object until something changes. */
  readonly getSnapshot = (): ChatSnapshot => {
    this.snapshotCache ??= {
      open: this.isOpen(),
      messages: this.messages,
      // Copies: a transfer changed later is a new object in the next snapshot.
      transfers: [...this.transfers.values()].map((view) => ({ ...view })),
    };
    return this.snapshotCache;
  };

  /** Called with each message (text or file) the other side sends. */
  onIncoming(listener: (message: ChatMessage) => void): () => void {
    this.incomingListeners.add(listener);
    return () => this.incomingListeners.delete(listener);
  }

  /** Sends a text message, trimmed; nothing is sent unless the channel is open (spec §5). */
  sendText(text: string): SendResult {
    const msg = text.trim();
    if (!msg) return { ok: false, reason: 'empty' };
    if (msg.length > chatMessageMaxLength) return { ok: false, reason: 'too_long' };
    if (!this.isOpen() || !this.post({ type: 'text', msg })) {
      return { ok: false, reason: 'not_open' };
    }
    const id = this.localId('m');
    this.addMessage({ id, msg, sender: 'me', type: 'text' });
    return { ok: true, id };
  }

  /** Queues a file; files go one after another. The result's id is the transfer's. */
  sendFile(file: File): SendResult {
    if (file.size > chatFileMaxBytes) return { ok: false, reason: 'too_large' };
    if (!this.isOpen()) return { ok: false, reason: 'not_open' };
    const id = this.localId('t');
    const view: FileTransfer = {
      id,
      direction: 'out',
      name: safeName(file.name),
      size: file.size,
      mime: safeMime(file.type),
      bytes: 0,
      status: 'queued',
    };
    const record: Outgoing = {
      view,
      wireId: crypto.randomUUID(),
      file,
      aborted: false,
      queued: 0,
      ended: false,
    };
    this.transfers.set(id, view);
    this.outgoing.set(record.wireId, record);
    this.sendQueue.push(record);
    this.addMessage({
      id: this.localId('m'),
      msg: view.name,
      sender: 'me',
      type: 'file',
      transferId: id,
    });
    void this.pump();
    return { ok: true, id };
  }

  /** Cancels a transfer still under way, in either direction; the other side is told. */
  cancel(transferId: string): void {
    const out = [...this.outgoing.values()].find((record) => record.view.id === transferId);
    if (out && (out.view.status === 'queued' || out.view.status === 'sending')) {
      const started = out.view.status === 'sending';
      out.aborted = true;
      this.update(out.view, { status: 'cancelled', cancelledBy: 'me' });
      if (started)
        this.post({ type: 'file-cancel', id: out.wireId, side: 'sender', reason: 'cancelled' });
      this.wake();
      return;
    }
    const incoming = this.incoming;
    if (incoming?.view.id === transferId && incoming.view.status === 'receiving') {
      this.incoming = null;
      this.update(incoming.view, { status: 'cancelled', cancelledBy: 'me' });
      this.post({
        type: 'file-cancel',
        id: incoming.wireId,
        side: 'receiver',
        reason: 'cancelled',
      });
    }
  }

  /** Stops listening, cancels what is under way and revokes the download links. */
  dispose(): void {
    if (this.disposed) return;
    for (const record of this.outgoing.values()) {
      if (record.view.status === 'queued' || record.view.status === 'sending') {
        this.cancel(record.view.id);
      }
    }
    if (this.incoming) this.cancel(this.incoming.view.id);
    this.disposed = true;
    this.channel.removeEventListener('open', this.onOpen);
    this.channel.removeEventListener('close', this.onClose);
    this.channel.removeEventListener('message', this.onMessage);
    this.channel.removeEventListener('bufferedamountlow', this.wake);
    this.wake();
    for (const url of this.urls.splice(0)) this.revokeObjectURL(url);
    this.listeners.clear();
    this.incomingListeners.clear();
  }

  // --- channel events ---

  private readonly onOpen = () => this.emit();

  private readonly onClose = () => {
    for (const view of this.transfers.values()) {
      const underWay =
        view.direction === 'out' ? !FINAL.includes(view.status) : view.status === 'receiving';
      if (underWay) this.update(view, { status: 'failed', failure: 'channel_closed' }, false);
    }
    for (const record of this.outgoing.values()) record.aborted = true;
    this.incoming = null;
    this.wake();
    this.emit();
  };

  private readonly onMessage = (event: Event) => {
    if (this.disposed) return;
    const data: unknown = (event as MessageEvent).data;
    if (typeof data === 'string') {
      this.onControl(data);
    } else if (data instanceof ArrayBuffer) {
      this.onChunk(new Uint8Array(data));
    } else if (ArrayBuffer.isView(data)) {
      this.onChunk(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    }
  };

  private onControl(text: string): void {
    if (text.length > MAX_CONTROL_CHARS) return;
    let parsed: WireMessage;
    try {
      const result = wireSchema.safeParse(JSON.parse(text));
      if (!result.success) return;
      parsed = result.data;
    } catch {
      return;
    }
    switch (parsed.type) {
      case 'text':
        this.receive({ id: this.localId('m'), msg: parsed.msg, sender: 'other', type: 'text' });
        return;
      case 'file-start':
        this.onFileStart(parsed);
        return;
      case 'file-end':
        void this.onFileEnd(parsed.id, parsed.sha256);
        return;
      case 'file-cancel':
        this.onFileCancel(parsed);
        return;
      case 'file-done': {
        const record = this.outgoing.get(parsed.id);
        if (record?.ended && !FINAL.includes(record.view.status)) {
          record.aborted = true;
          this.update(
            record.view,
            parsed.ok
              ? { status: 'complete', bytes: record.view.size }
              : { status: 'failed', failure: 'hash_mismatch' },
          );
        }
        return;
      }
    }
  }

  private onFileStart(start: Extract<WireMessage, { type: 'file-start' }>): void {
    const previous = this.incoming;
    if (previous) {
      // Files come one after another: a new one while another is open breaks the protocol.
      this.incoming = null;
      this.update(previous.view, { status: 'failed', failure: 'protocol' });
    }
    const view: FileTransfer = {
      id: this.localId('t'),
      direction: 'in',
      name: safeName(start.name),
      size: start.size,
      mime: safeMime(start.mime),
      bytes: 0,
      status: 'receiving',
    };
    this.transfers.set(view.id, view);
    let buffer: Uint8Array<ArrayBuffer> | null = null;
    if (start.size > chatFileMaxBytes) {
      view.status = 'failed';
      view.failure = 'too_large';
    } else {
      try {
        buffer = new Uint8Array(start.size);
      } catch {
        view.status = 'failed';
        view.failure = 'local_error';
      }
    }
    if (buffer) {
      this.incoming = { view, wireId: start.id, buffer };
    } else {
      this.post({
        type: 'file-cancel',
        id: start.id,
        side: 'receiver',
        reason: view.failure === 'too_large' ? 'too_large' : 'failed',
      });
    }
    this.receive({
      id: this.localId('m'),
      msg: view.name,
      sender: 'other',
      type: 'file',
      transferId: view.id,
    });
  }

  private onChunk(chunk: Uint8Array): void {
    const incoming = this.incoming;
    // Chunks of a file cancelled or refused here may still be on the way: dropped.
    if (!incoming) return;
    const { view, buffer } = incoming;
    if (view.bytes + chunk.byteLength > view.size) {
      this.incoming = null;
      this.update(view, { status: 'failed', failure: 'protocol' });
      this.post({ type: 'file-cancel', id: incoming.wireId, side: 'receiver', reason: 'failed' });
      return;
    }
    buffer.set(chunk, view.bytes);
    this.progress(view, view.bytes + chunk.byteLength);
  }

  private async onFileEnd(id: string, expected: string): Promise<void> {
    const incoming = this.incoming;
    if (incoming?.wireId !== id) return;
    this.incoming = null;
    const { view, buffer } = incoming;
    if (view.bytes !== view.size) {
      this.update(view, { status: 'failed', failure: 'protocol' });
      this.post({ type: 'file-done', id, ok: false });
      return;
    }
    this.update(view, { status: 'verifying' });
    this.checking.set(id, view);
    let actual: string | null = null;
    try {
      actual = await sha256(buffer);
    } catch {
      actual = null;
    }
    this.checking.delete(id);
    // Disposed, or cancelled by the sender meanwhile: no download.
    if (this.disposed || view.status !== 'verifying') return;
    if (actual === null) {
      this.update(view, { status: 'failed', failure: 'local_error' });
      this.post({ type: 'file-done', id, ok: false });
      return;
    }
    if (actual !== expected) {
      this.update(view, { status: 'failed', failure: 'hash_mismatch' });
      this.post({ type: 'file-done', id, ok: false });
      return;
    }
    // Always offered as a download, never rendered: a peer's "text/html" must not run here.
    const url = this.createObjectURL(new Blob([buffer], { type: FALLBACK_MIME }));
    this.urls.push(url);
    this.update(view, { status: 'complete', url });
    this.post({ type: 'file-done', id, ok: true });
  }

  private onFileCancel(cancel: Extract<WireMessage, { type: 'file-cancel' }>): void {
    if (cancel.side === 'sender') {
      const checking = this.checking.get(cancel.id);
      if (checking) {
        this.update(checking, { status: 'cancelled', cancelledBy: 'other' });
        return;
      }
      const incoming = this.incoming;
      if (incoming?.wireId !== cancel.id) return;
      this.incoming = null;
      this.update(incoming.view, { status: 'cancelled', cancelledBy: 'other' });
      return;
    }
    const record = this.outgoing.get(cancel.id);
    if (!record || FINAL.includes(record.view.status)) return;
    record.aborted = true;
    this.update(
      record.view,
      cancel.reason === 'cancelled'
        ? { status: 'cancelled', cancelledBy: 'other' }
        : { status: 'failed', failure: cancel.reason === 'too_large' ? 'too_large' : 'protocol' },
    );
    this.wake();
  }

  // --- sending files ---

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (let next = this.sendQueue.shift(); next; next = this.sendQueue.shift()) {
        if (!next.aborted && !this.disposed) await this.sendOne(next);
      }
    } finally {
      this.pumping = false;
    }
  }

  private async sendOne(record: Outgoing): Promise<void> {
    const { view, file } = record;
    if (!this.isOpen()) {
      this.update(view, { status: 'failed', failure: 'channel_closed' });
      return;
    }
    const read = (offset: number) => {
      const block = file.slice(offset, offset + READ_BLOCK_BYTES).arrayBuffer();
      block.catch(() => undefined);
      return block;
    };
    // WebCrypto hashes whole buffers only: the digest is computed while the chunks go out.
    const digest = file.arrayBuffer().then(sha256);
    digest.catch(() => undefined);
    // Until the buffer has drained, after the loop too: progress follows what has left.
    const poll = setInterval(() => {
      this.sent(record);
      if (view.status !== 'sending' || this.disposed) clearInterval(poll);
    }, SENT_POLL_MS);
    try {
      this.update(view, { status: 'sending' });
      this.post({
        type: 'file-start',
        id: record.wireId,
        name: view.name,
        size: view.size,
        mime: view.mime,
      });
      let nextBlock = view.size > 0 ? read(0) : null;
      for (let offset = 0; nextBlock; offset += READ_BLOCK_BYTES) {
        const block = new Uint8Array(await nextBlock);
        nextBlock = offset + READ_BLOCK_BYTES < view.size ? read(offset + READ_BLOCK_BYTES) : null;
        for (let at = 0; at < block.byteLength; at += chatFileChunkBytes) {
          while (!record.aborted && this.channel.bufferedAmount > HIGH_WATER_BYTES) {
            await this.drained();
          }
          if (record.aborted) return;
          const chunk = block.subarray(at, at + chatFileChunkBytes);
          this.channel.send(chunk);
          record.queued += chunk.byteLength;
          this.sent(record);
        }
      }
      const hash = await digest;
      if (record.aborted) return;
      this.post({ type: 'file-end', id: record.wireId, sha256: hash });
      record.ended = true;
      this.sent(record);
    } catch {
      if (!record.aborted) {
        record.aborted = true;
        const open = this.isOpen();
        this.update(view, { status: 'failed', failure: open ? 'local_error' : 'channel_closed' });
        if (open) {
          this.post({ type: 'file-cancel', id: record.wireId, side: 'sender', reason: 'failed' });
        }
      }
    }
  }

  /**
   * Progress of a file being sent: what has left the channel's buffer (the buffer holds text
   * too, so this errs low, never high). Once everything has left, the other side is checking.
   */
  private sent(record: Outgoing): void {
    const { view } = record;
    if (view.status !== 'sending') return;
    const left = Math.max(view.bytes, record.queued - this.channel.bufferedAmount);
    if (record.ended && this.channel.bufferedAmount === 0) {
      this.update(view, { bytes: view.size, status: 'verifying' });
    } else {
      this.progress(view, Math.min(left, view.size));
    }
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  private readonly wake = () => {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  };

  // --- state ---

  private isOpen(): boolean {
    return !this.disposed && this.channel.readyState === 'open';
  }

  /** Sends a control message; false when the channel refused it. */
  private post(message: WireMessage): boolean {
    if (this.channel.readyState !== 'open') return false;
    try {
      this.channel.send(JSON.stringify(message));
      return true;
    } catch {
      return false;
    }
  }

  private localId(prefix: string): string {
    return `${prefix}${this.nextLocalId++}`;
  }

  private addMessage(message: ChatMessage): void {
    this.messages = [...this.messages, message].slice(-MAX_MESSAGES);
    this.emit();
  }

  private receive(message: ChatMessage): void {
    this.addMessage(message);
    for (const listener of this.incomingListeners) listener(message);
  }

  /** Progress is published in steps of about 1 % (or 256 KiB), not on every chunk. */
  private progress(view: FileTransfer, bytes: number): void {
    const step = Math.max(256 * 1024, Math.floor(view.size / 100));
    const before = Math.floor(view.bytes / step);
    view.bytes = bytes;
    if (Math.floor(bytes / step) !== before || bytes === view.size) this.emit();
  }

  private update(view: FileTransfer, changes: Partial<FileTransfer>, emit = true): void {
    Object.assign(view, changes);
    if (emit) this.emit();
  }

  private emit(): void {
    if (this.disposed) return;
    this.snapshotCache = null;
    for (const listener of this.listeners) listener();
  }
}
