import { isUtf8 } from 'node:buffer';
import { callMessageMaxBytes } from '@upnext/contract/meetings';
import { droppedHeader } from '@upnext/contract/realtime-topics';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { RealtimeConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Caller } from '../modules/access/caller.ts';
import type { LocalBroker, Subscriber } from './broker.ts';
import {
  authorizeSendDestination,
  authorizeSubscribe,
  type CallAuthorizer,
  type Decision,
} from './realtime.policy.ts';
import type { AudienceLookup } from './realtime.repository.ts';
import {
  messageFrame,
  type PreparedMessage,
  type StompFrame,
  type StompHeaders,
  StompParser,
  StompProtocolError,
  serializeFrame,
  subscriptionHead,
} from './stomp-frame.ts';

export const stompLimits = {
  /** Largest incoming frame: the largest call message and room for its headers. */
  maxFrameBytes: callMessageMaxBytes + 4096,
  maxHeaders: 64,
  maxSubscriptions: 100,
  /**
   * A slow consumer: past `slowConsumerBytes` unsent, a connection is behind and gets no more
   * MESSAGEs. Each subscription keeps only its latest (topics mostly carry whole states) and
   * sends it with `x-dropped` once the backlog is down to `resumeBytes`. Past `maxBufferedBytes`,
   * or behind for longer than the slow-consumer timeout, the client gets an ERROR and is closed.
   */
  slowConsumerBytes: 1024 * 1024,
  resumeBytes: 256 * 1024,
  maxBufferedBytes: 4 * 1024 * 1024,
  /** How often a connection that is behind looks whether it caught up. */
  drainCheckMs: 50,
  /**
   * SEND frames per connection: a token bucket of `sendBurst`, refilled at `sendPerSecond`.
   * A call's set-up (an offer and a trickle of ICE candidates) stays well inside it.
   */
  sendBurst: 50,
  sendPerSecond: 20,
} as const;

export type ConnectionDeps = {
  db: Db;
  caller: Caller;
  broker: LocalBroker;
  /** Who may watch a session, cached for the instance (cachedSessionAudience). */
  audience: AudienceLookup;
  authorizeCall: CallAuthorizer;
  /** Delivers a forwarded call message here and on the bus. */
  forward(destination: string, body: string): void;
  /** Heart-beat interval and timeouts. */
  config: RealtimeConfig;
  /**
   * For signed-in connections: whether the token's session is still live (not logged out,
   * user not banned). Asked before every SUBSCRIBE and SEND, so a logout takes effect there.
   */
  stillSignedIn(): Promise<boolean>;
  log: FastifyBaseLogger;
  id: string;
};

/** WebSocket close codes used after an ERROR frame or when a peer goes silent. */
const closeCodes = { normal: 1000, goingAway: 1001, protocol: 1002, policy: 1008 } as const;

type Subscription = Subscriber & {
  id: string;
  destination: string;
  /** The first lines of its MESSAGE frames (subscriptionHead). */
  head: string;
  /** While the connection is behind: the latest message, and how many it replaced. */
  pending?: { message: PreparedMessage; dropped: number };
};

/**
 * One client's STOMP session over one WebSocket. Frames are handled strictly in order (a
 * SUBSCRIBE's authorisation may wait on the database; a RECEIPT is sent only after it).
 */
export class StompConnection {
  private readonly ws: WebSocket;
  private readonly deps: ConnectionDeps;
  private readonly parser = new StompParser(stompLimits);
  private readonly subscriptions = new Map<string, Subscription>();
  private state: 'connecting' | 'connected' | 'closed' = 'connecting';
  private queue: Promise<void> = Promise.resolve();
  private sendTokens: number = stompLimits.sendBurst;
  private sendTokensAt = performance.now();
  private lastReceivedAt = Date.now();
  private connectTimer: NodeJS.Timeout | undefined;
  private sendTimer: NodeJS.Timeout | undefined;
  private checkTimer: NodeJS.Timeout | undefined;
  /** When the connection fell behind (a slow consumer), while it is. */
  private behindSince: number | undefined;
  private drainTimer: NodeJS.Timeout | undefined;
  /** Negotiated intervals (0 = none), for tests and logs. */
  outgoingHeartbeatMs = 0;
  incomingHeartbeatMs = 0;

  constructor(ws: WebSocket, deps: ConnectionDeps) {
    this.ws = ws;
    this.deps = deps;
    ws.on('message', (data, isBinary) => this.onData(data, isBinary));
    ws.on('close', () => this.cleanUp());
    ws.on('error', (error) => {
      deps.log.debug({ err: error, connection: deps.id }, 'realtime: socket error');
      this.cleanUp();
    });
    // An open socket that never says CONNECT would otherwise be held for as long as it likes.
    const connectTimeoutMs = deps.config.connectTimeoutMs;
    this.connectTimer = setTimeout(() => {
      if (this.state !== 'connecting') return;
      this.fail('CONNECT timeout', `Send CONNECT within ${connectTimeoutMs} ms of opening.`);
    }, connectTimeoutMs);
    this.connectTimer.unref();
  }

  get closed(): boolean {
    return this.state === 'closed';
  }

  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

  /** Clean close from the server (shutdown, or the access token expired). */
  close(code: number = closeCodes.goingAway, reason = 'Server shutting down'): void {
    if (this.state === 'closed') return;
    this.cleanUp();
    this.ws.close(code, reason);
  }

  /** Closes cleanly and resolves once the peer answered (or after `timeoutMs`, cut off). */
  shutdown(timeoutMs = 2000): Promise<void> {
    const ws = this.ws;
    if (ws.readyState === ws.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        ws.terminate();
        resolve();
      }, timeoutMs);
      timer.unref();
      ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      if (this.state === 'closed') ws.close(closeCodes.goingAway, 'Server shutting down');
      else this.close();
    });
  }

  /** Refuses with an ERROR frame, then closes (STOMP: the server closes after an ERROR). */
  fail(message: string, detail = '', options: { receipt?: string; code?: number } = {}): void {
    if (this.state === 'closed') return;
    const headers: StompHeaders = { message, 'content-type': 'text/plain' };
    if (options.receipt !== undefined) headers['receipt-id'] = options.receipt;
    this.send(serializeFrame('ERROR', headers, detail || message));
    this.deps.log.debug({ connection: this.deps.id, message }, 'realtime: refused');
    this.cleanUp();
    this.ws.close(options.code ?? closeCodes.policy, 'STOMP error');
  }

  private onData(data: unknown, _isBinary: boolean): void {
    if (this.state === 'closed') return;
    this.lastReceivedAt = Date.now();
    const chunk = Array.isArray(data)
      ? Buffer.concat(data as Buffer[])
      : Buffer.isBuffer(data)
        ? data
        : Buffer.from(data as ArrayBuffer);
    let frames: StompFrame[];
    try {
      frames = this.parser.push(chunk).frames;
    } catch (error) {
      const message = error instanceof StompProtocolError ? error.message : 'Malformed frame';
      this.queue = this.queue.then(() =>
        this.fail('Malformed frame', message, { code: closeCodes.protocol }),
      );
      return;
    }
    for (const frame of frames) {
      // A flood is refused as it arrives, before any of it waits on the database.
      if (frame.command === 'SEND' && !this.takeSendToken()) {
        const receipt = optionalReceipt(frame.headers.receipt);
        this.queue = this.queue.then(() =>
          this.fail(
            'Too many messages',
            `At most ${stompLimits.sendPerSecond} messages a second (bursts of ${stompLimits.sendBurst}) per connection.`,
            receipt,
          ),
        );
        break;
      }
      this.queue = this.queue.then(() => this.handle(frame));
    }
    this.queue = this.queue.catch((error: unknown) => {
      this.deps.log.error({ err: error, connection: this.deps.id }, 'realtime: frame failed');
      this.fail('Internal error', 'The server could not handle this frame.');
    });
  }

  private async handle(frame: StompFrame): Promise<void> {
    if (this.state === 'closed') return;
    if (this.state === 'connecting') {
      if (frame.command !== 'CONNECT' && frame.command !== 'STOMP') {
        this.fail('Not connected', 'The first frame must be CONNECT (or STOMP).');
        return;
      }
      this.connect(frame);
      return;
    }
    const receipt = frame.headers.receipt;
    switch (frame.command) {
      case 'SUBSCRIBE':
        if (!(await this.subscribe(frame))) return;
        break;
      case 'UNSUBSCRIBE':
        if (!this.unsubscribe(frame)) return;
        break;
      case 'SEND':
        if (!(await this.sendFrame(frame))) return;
        break;
      case 'DISCONNECT':
        if (receipt !== undefined) this.send(serializeFrame('RECEIPT', { 'receipt-id': receipt }));
        this.close(closeCodes.normal, 'Disconnected');
        return;
      case 'CONNECT':
      case 'STOMP':
        this.fail('Already connected', 'CONNECT may only be sent once.', optionalReceipt(receipt));
        return;
      default:
        // ACK, NACK and transactions: every subscription is ack:auto and there is no queueing.
        this.fail(
          `${frame.command} is not supported`,
          'This server supports CONNECT, SUBSCRIBE, UNSUBSCRIBE, SEND and DISCONNECT.',
          optionalReceipt(receipt),
        );
        return;
    }
    if (receipt !== undefined) this.send(serializeFrame('RECEIPT', { 'receipt-id': receipt }));
  }

  private connect(frame: StompFrame): void {
    const versions = (frame.headers['accept-version'] ?? '1.0').split(',').map((v) => v.trim());
    if (!versions.includes('1.2')) {
      this.send(
        serializeFrame(
          'ERROR',
          {
            version: '1.2',
            message: 'Supported protocol versions are 1.2',
            'content-type': 'text/plain',
          },
          'Supported protocol versions are 1.2',
        ),
      );
      this.cleanUp();
      this.ws.close(closeCodes.protocol, 'STOMP error');
      return;
    }
    const heartbeat = /^(\d{1,9}),(\d{1,9})$/.exec(frame.headers['heart-beat'] ?? '0,0');
    if (!heartbeat) {
      this.fail('Malformed frame', 'heart-beat must be two whole numbers, like 10000,10000.', {
        code: closeCodes.protocol,
      });
      return;
    }
    // STOMP 1.2: each side sends at most as often as the other wants and it can.
    const clientSends = Number(heartbeat[1]);
    const clientWants = Number(heartbeat[2]);
    const serverMs = this.deps.config.heartbeatMs;
    this.outgoingHeartbeatMs = clientWants === 0 ? 0 : Math.max(serverMs, clientWants);
    this.incomingHeartbeatMs = clientSends === 0 ? 0 : Math.max(serverMs, clientSends);
    this.state = 'connected';
    clearTimeout(this.connectTimer);
    this.send(
      serializeFrame('CONNECTED', {
        version: '1.2',
        'heart-beat': `${serverMs},${serverMs}`,
        server: 'UpNext',
        session: this.deps.id,
        ...(this.deps.caller.kind === 'user' ? { 'user-name': this.deps.caller.userId } : {}),
      }),
    );
    if (this.outgoingHeartbeatMs > 0) {
      this.sendTimer = setInterval(() => {
        if (this.ws.readyState === this.ws.OPEN) this.ws.send('\n');
      }, this.outgoingHeartbeatMs);
      this.sendTimer.unref();
    }
    // Silence ends every connection. A client that promised heart-beats is dead after twice
    // its interval (some slack for a busy network or machine) and is cut off; one that sends
    // none (0,0) or very few is idle after the idle timeout and is told so.
    const idleMs = this.deps.config.idleTimeoutMs;
    const beating = this.incomingHeartbeatMs > 0 && this.incomingHeartbeatMs * 2 < idleMs;
    const silenceMs = beating ? this.incomingHeartbeatMs * 2 : idleMs;
    this.checkTimer = setInterval(() => {
      if (Date.now() - this.lastReceivedAt <= silenceMs) return;
      if (!beating) {
        this.fail(
          'Idle timeout',
          `Nothing received for ${silenceMs} ms. Send heart-beats (heart-beat:${serverMs},${serverMs}) to stay connected.`,
        );
        return;
      }
      this.deps.log.debug({ connection: this.deps.id }, 'realtime: no heart-beat; closing');
      this.cleanUp();
      this.ws.terminate();
    }, silenceMs / 2);
    this.checkTimer.unref();
  }

  private async subscribe(frame: StompFrame): Promise<boolean> {
    const { id, destination, ack, receipt } = frame.headers;
    if (!id || !destination) {
      this.fail('Malformed frame', 'SUBSCRIBE needs the id and destination headers.', {
        ...optionalReceipt(receipt),
        code: closeCodes.protocol,
      });
      return false;
    }
    if (ack !== undefined && ack !== 'auto') {
      this.fail('Unsupported ack mode', 'Only ack:auto is supported.', optionalReceipt(receipt));
      return false;
    }
    if (this.subscriptions.has(id)) {
      this.fail(
        'Duplicate subscription',
        `Subscription id ${id} is already in use.`,
        optionalReceipt(receipt),
      );
      return false;
    }
    if (this.subscriptions.size >= stompLimits.maxSubscriptions) {
      this.fail(
        'Too many subscriptions',
        `At most ${stompLimits.maxSubscriptions} per connection.`,
      );
      return false;
    }
    if (!(await this.checkSignedIn(receipt))) return false;
    const decision = await authorizeSubscribe(
      { db: this.deps.db, caller: this.deps.caller, audience: this.deps.audience },
      destination,
    );
    if (!this.allowed(decision, receipt)) return false;
    if (this.state === 'closed') return false;
    const subscription: Subscription = {
      id,
      destination: decision.topic ?? destination,
      head: subscriptionHead(id),
      deliver: (message) => this.deliver(subscription, message),
    };
    this.subscriptions.set(id, subscription);
    this.deps.broker.add(subscription.destination, subscription);
    return true;
  }

  private unsubscribe(frame: StompFrame): boolean {
    const { id, receipt } = frame.headers;
    if (!id) {
      this.fail('Malformed frame', 'UNSUBSCRIBE needs the id header.', {
        ...optionalReceipt(receipt),
        code: closeCodes.protocol,
      });
      return false;
    }
    const subscription = this.subscriptions.get(id);
    if (subscription) {
      this.subscriptions.delete(id);
      this.deps.broker.remove(subscription.destination, subscription);
    }
    return true;
  }

  private async sendFrame(frame: StompFrame): Promise<boolean> {
    const { destination, receipt } = frame.headers;
    if (!destination) {
      this.fail('Malformed frame', 'SEND needs the destination header.', {
        ...optionalReceipt(receipt),
        code: closeCodes.protocol,
      });
      return false;
    }
    const caller = this.deps.caller;
    if (!this.allowed(authorizeSendDestination(caller, destination), receipt)) return false;
    if (caller.kind !== 'user') return false;
    if (frame.body.length > callMessageMaxBytes) {
      this.fail(
        'Call refused',
        `A call message may be at most ${callMessageMaxBytes} bytes.`,
        optionalReceipt(receipt),
      );
      return false;
    }
    if (!(await this.checkSignedIn(receipt))) return false;
    let message: unknown;
    try {
      message = JSON.parse(frame.body.toString('utf8'));
    } catch {
      this.fail(
        'Malformed frame',
        'A call message must be a JSON object.',
        optionalReceipt(receipt),
      );
      return false;
    }
    const decision = await this.deps.authorizeCall(caller, message);
    if (!decision.allow) {
      this.fail('Call refused', decision.message, optionalReceipt(receipt));
      return false;
    }
    this.deps.forward(decision.destination, JSON.stringify(decision.body ?? message));
    await decision.afterForward?.();
    return true;
  }

  /** The SEND rate limit: takes one token from the bucket, refilled by the time elapsed. */
  private takeSendToken(): boolean {
    const now = performance.now();
    this.sendTokens = Math.min(
      stompLimits.sendBurst,
      this.sendTokens + ((now - this.sendTokensAt) / 1000) * stompLimits.sendPerSecond,
    );
    this.sendTokensAt = now;
    if (this.sendTokens < 1) return false;
    this.sendTokens -= 1;
    return true;
  }

  private async checkSignedIn(receipt: string | undefined): Promise<boolean> {
    if (this.deps.caller.kind !== 'user' || (await this.deps.stillSignedIn())) return true;
    this.fail('Session ended', 'Your session is not valid any more. Please sign in again.', {
      ...optionalReceipt(receipt),
    });
    return false;
  }

  private allowed(
    decision: Decision,
    receipt: string | undefined,
  ): decision is Extract<Decision, { allow: true }> {
    if (decision.allow) return true;
    this.fail('Access denied', decision.message, optionalReceipt(receipt));
    return false;
  }

  private deliver(subscription: Subscription, message: PreparedMessage): void {
    if (this.state !== 'connected') return;
    if (this.behindSince === undefined) {
      this.sendMessage(subscription, message, 0);
      return;
    }
    // Only the latest waits; those it replaces are counted, so the client knows to re-read.
    const dropped = subscription.pending ? subscription.pending.dropped + 1 : 0;
    subscription.pending = { message, dropped };
  }

  private sendMessage(subscription: Subscription, message: PreparedMessage, dropped: number): void {
    const extra = dropped > 0 ? { [droppedHeader]: String(dropped) } : undefined;
    // Built from strings only, so always UTF-8: a text frame without checking.
    this.send(messageFrame(message, subscription.head, extra), true);
  }

  private send(frame: Buffer, text = isUtf8(frame)): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    // Text frames carry UTF-8 only; anything else goes as a binary WebSocket frame.
    this.ws.send(frame, { binary: !text });
    const behind = this.ws.bufferedAmount > stompLimits.slowConsumerBytes;
    if (behind && this.behindSince === undefined && this.state === 'connected') {
      this.behindSince = Date.now();
      this.drainTimer = setInterval(() => this.checkBehind(), stompLimits.drainCheckMs);
      this.drainTimer.unref();
      this.deps.log.debug({ connection: this.deps.id }, 'realtime: slow consumer; holding back');
    }
  }

  private checkBehind(): void {
    if (this.behindSince === undefined) return;
    const buffered = this.ws.bufferedAmount;
    if (buffered <= stompLimits.resumeBytes) {
      this.catchUp();
      return;
    }
    const timeoutMs = this.deps.config.slowConsumerTimeoutMs;
    const reason =
      buffered > stompLimits.maxBufferedBytes
        ? `More than ${stompLimits.maxBufferedBytes} bytes sent to this connection are unread.`
        : Date.now() - this.behindSince > timeoutMs
          ? `Messages to this connection have waited for more than ${timeoutMs} ms.`
          : undefined;
    if (reason === undefined) return;
    this.deps.log.warn({ connection: this.deps.id }, 'realtime: slow consumer closed');
    this.fail('Slow consumer', `${reason} Reconnect to read the current state.`);
  }

  /** Sends what each subscription held back, until done or behind again. */
  private catchUp(): void {
    clearInterval(this.drainTimer);
    this.behindSince = undefined;
    for (const subscription of this.subscriptions.values()) {
      if (this.behindSince !== undefined) return;
      const pending = subscription.pending;
      if (!pending) continue;
      subscription.pending = undefined;
      this.sendMessage(subscription, pending.message, pending.dropped);
    }
  }

  private cleanUp(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.connectTimer);
    clearInterval(this.sendTimer);
    clearInterval(this.checkTimer);
    clearInterval(this.drainTimer);
    for (const subscription of this.subscriptions.values()) {
      this.deps.broker.remove(subscription.destination, subscription);
    }
    this.subscriptions.clear();
  }
}

function optionalReceipt(receipt: string | undefined): { receipt?: string } {
  return receipt === undefined ? {} : { receipt };
}
