import type { IMessage, StompConfig, StompSubscription } from '@stomp/stompjs';
import {
  maxReconnectAttempts,
  realtimePath,
  reconnectDelayMs,
  stompHeartbeatMs,
} from '@upnext/contract/realtime-topics';
import { useEffect, useRef } from 'react';
import { getAccessToken, getCurrentUser, subscribeAuthSession } from './auth-session.ts';

/** What the connection needs of a STOMP client (stompjs' `Client`; a fake in tests). */
export interface StompLike {
  onConnect: StompConfig['onConnect'];
  onStompError: StompConfig['onStompError'];
  onWebSocketClose: StompConfig['onWebSocketClose'];
  onWebSocketError: StompConfig['onWebSocketError'];
  readonly connected: boolean;
  activate(): void;
  deactivate(): Promise<void> | void;
  subscribe(
    destination: string,
    callback: (message: IMessage) => void,
  ): Pick<StompSubscription, 'unsubscribe'>;
}

export type MessageHandler = (body: unknown, message: IMessage) => void;

export interface RealtimeOptions {
  /** The endpoint with the current access token; read again before every attempt. */
  url: () => string;
  createClient?: (config: StompConfig) => StompLike;
  logger?: Pick<Console, 'info' | 'warn'>;
}

export const maxAttemptsMessage = 'Maximum reconnect attempts reached';

/**
 * One STOMP connection per signed-in browser (PRODUCT.md "Realtime"). After a messaging
 * error, a socket close or a socket error it reconnects after 5000 ms, at most 100 times in a
 * row, then logs that the maximum was reached (spec §8). Subscriptions made through it
 * survive reconnects: they are renewed on every CONNECTED.
 */
export class RealtimeConnection {
  private readonly options: RealtimeOptions;
  private readonly handlers = new Map<string, Set<MessageHandler>>();
  private readonly live = new Map<string, Pick<StompSubscription, 'unsubscribe'>>();
  private client: StompLike | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  /** Bumped by every open and stop, so a late module load never opens a stale connection. */
  private generation = 0;
  /** Reconnects since the last successful CONNECTED. */
  attempts = 0;

  constructor(options: RealtimeOptions) {
    this.options = options;
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.attempts = 0;
    this.open();
  }

  stop(): void {
    this.running = false;
    this.generation++;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.live.clear();
    const client = this.client;
    this.client = undefined;
    if (client) void client.deactivate();
  }

  /** Listens to a topic while the returned function has not been called. */
  subscribe(destination: string, handler: MessageHandler): () => void {
    let set = this.handlers.get(destination);
    if (!set) {
      set = new Set();
      this.handlers.set(destination, set);
      if (this.client?.connected) this.subscribeOnServer(this.client, destination);
    }
    set.add(handler);
    return () => {
      const current = this.handlers.get(destination);
      if (!current) return;
      current.delete(handler);
      if (current.size > 0) return;
      this.handlers.delete(destination);
      this.live.get(destination)?.unsubscribe();
      this.live.delete(destination);
    };
  }

  private open(): void {
    if (this.options.createClient) {
      this.openWith(this.options.createClient);
      return;
    }
    // stompjs is fetched on demand: visitors who never sign in never download it.
    const generation = ++this.generation;
    import('@stomp/stompjs').then(
      ({ Client }) => {
        if (this.running && generation === this.generation) {
          this.openWith((config) => new Client(config));
        }
      },
      () => {
        if (this.running && generation === this.generation) this.scheduleReconnect();
      },
    );
  }

  private openWith(create: (config: StompConfig) => StompLike): void {
    const client = create({
      brokerURL: this.options.url(),
      // Reconnecting is ours (stompjs has no attempt limit); each attempt is a new client.
      reconnectDelay: 0,
      heartbeatIncoming: stompHeartbeatMs,
      heartbeatOutgoing: stompHeartbeatMs,
    });
    this.client = client;
    client.onConnect = () => {
      if (this.client !== client) return;
      this.attempts = 0;
      this.live.clear();
      for (const destination of this.handlers.keys()) this.subscribeOnServer(client, destination);
    };
    const lost = () => {
      if (this.client === client) this.scheduleReconnect();
    };
    client.onStompError = lost;
    client.onWebSocketClose = lost;
    client.onWebSocketError = lost;
    client.activate();
  }

  private subscribeOnServer(client: StompLike, destination: string): void {
    const subscription = client.subscribe(destination, (message) => {
      let body: unknown = message.body;
      try {
        body = JSON.parse(message.body);
      } catch {
        // not JSON: handlers get the text
      }
      for (const handler of this.handlers.get(destination) ?? []) handler(body, message);
    });
    this.live.set(destination, subscription);
  }

  private scheduleReconnect(): void {
    // An error and the close that follows it are one loss, so one attempt.
    if (!this.running || this.timer !== undefined) return;
    const old = this.client;
    this.client = undefined;
    this.live.clear();
    if (old) void old.deactivate();
    if (this.attempts >= maxReconnectAttempts) {
      (this.options.logger ?? console).warn(`[UpNext] realtime: ${maxAttemptsMessage}`);
      this.running = false;
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.running) return;
      this.attempts++;
      this.open();
    }, reconnectDelayMs);
  }
}

function endpoint(): string {
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const token = getAccessToken();
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  return `${protocol}//${window.location.host}${realtimePath}${query}`;
}

/** The app's one connection. */
export const realtime = new RealtimeConnection({ url: endpoint });

/**
 * Spec §4: connected while a user with an email is signed in; disconnected on sign-out and
 * when the returned teardown runs. A new access token (another user) reconnects.
 */
export function connectRealtimeToAuth(connection: RealtimeConnection = realtime): () => void {
  let connectedAs: string | null = null;
  const sync = () => {
    const user = getCurrentUser();
    const next = user?.email ? user.id : null;
    if (next === connectedAs) return; // a refreshed token is used at the next (re)connect
    connectedAs = next;
    connection.stop();
    if (next) connection.start();
  };
  sync();
  const unsubscribe = subscribeAuthSession(sync);
  return () => {
    unsubscribe();
    connectedAs = null;
    connection.stop();
  };
}

/**
 * Calls `onMessage` with each JSON body published to `destination` (null: nothing) while the
 * component is mounted. The latest `onMessage` is used without resubscribing.
 */
export function useTopic(
  destination: string | null,
  onMessage: MessageHandler,
  connection: RealtimeConnection = realtime,
): void {
  const handler = useRef(onMessage);
  handler.current = onMessage;
  useEffect(() => {
    if (!destination) return;
    return connection.subscribe(destination, (body, message) => handler.current(body, message));
  }, [destination, connection]);
}
