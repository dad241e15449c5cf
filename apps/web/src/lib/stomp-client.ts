import type { IMessage, StompConfig, StompSubscription } from '@stomp/stompjs';
import {
  droppedHeader,
  maxReconnectAttempts,
  realtimePath,
  reconnectDelayMs,
  stompHeartbeatMs,
} from '@upnext/contract/realtime-topics';
import { useSyncExternalStore } from 'react';
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
  publish(params: { destination: string; body: string }): void;
}

export type MessageHandler = (body: unknown, message: IMessage) => void;

interface Listener {
  message: MessageHandler;
  /** Called each time events may have been missed: the topic was (re)subscribed, or skipped. */
  ready: (() => void) | undefined;
}

export interface RealtimeOptions {
  /** The endpoint with the current access token; read again before every attempt. */
  url: () => string;
  createClient?: (config: StompConfig) => StompLike;
  logger?: Pick<Console, 'info' | 'warn'>;
  /** Open while something listens, close when the last listener leaves (the public board). */
  onDemand?: boolean;
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
  private readonly handlers = new Map<string, Set<Listener>>();
  private readonly stateListeners = new Set<() => void>();
  private up = false;
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

  /** True between a CONNECTED and the next loss: events arrive, so polling can rest. */
  get isConnected(): boolean {
    return this.up;
  }

  onStateChange(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => {
      this.stateListeners.delete(listener);
    };
  }

  private setConnected(up: boolean): void {
    if (this.up === up) return;
    this.up = up;
    for (const listener of this.stateListeners) listener();
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
    this.setConnected(false);
    const client = this.client;
    this.client = undefined;
    if (client) void client.deactivate();
  }

  /**
   * Listens to a topic while the returned function has not been called; `onReady` runs each
   * time the topic is subscribed on the server (first time and after every reconnect) and
   * after a message that says earlier ones were skipped (`x-dropped`).
   */
  subscribe(destination: string, handler: MessageHandler, onReady?: () => void): () => void {
    const listener: Listener = { message: handler, ready: onReady };
    let set = this.handlers.get(destination);
    if (!set) {
      set = new Set();
      this.handlers.set(destination, set);
      set.add(listener);
      if (this.client?.connected) this.subscribeOnServer(this.client, destination);
    } else {
      set.add(listener);
      if (this.live.has(destination)) onReady?.();
    }
    if (this.options.onDemand) this.start();
    return () => {
      const current = this.handlers.get(destination);
      if (!current) return;
      current.delete(listener);
      if (current.size > 0) return;
      this.handlers.delete(destination);
      this.live.get(destination)?.unsubscribe();
      this.live.delete(destination);
      if (this.options.onDemand && this.handlers.size === 0) this.stop();
    };
  }

  /**
   * SENDs `body` (as JSON) to `destination` (only `/app/call` is accepted by the server).
   * False when the connection is not up: nothing is queued here, since a message that waited
   * out a reconnect may no longer make sense (the caller decides what to do with it).
   */
  publish(destination: string, body: unknown): boolean {
    const client = this.client;
    if (!this.up || !client?.connected) return false;
    client.publish({ destination, body: JSON.stringify(body) });
    return true;
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
      this.setConnected(true);
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
      const listeners = this.handlers.get(destination) ?? [];
      for (const listener of listeners) listener.message(body, message);
      // The server skipped messages while this client lagged: what they changed is re-read.
      if (message.headers[droppedHeader] !== undefined) {
        for (const listener of listeners) listener.ready?.();
      }
    });
    this.live.set(destination, subscription);
    for (const listener of this.handlers.get(destination) ?? []) listener.ready?.();
  }

  private scheduleReconnect(): void {
    // An error and the close that follows it are one loss, so one attempt.
    if (!this.running || this.timer !== undefined) return;
    const old = this.client;
    this.client = undefined;
    this.live.clear();
    this.setConnected(false);
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

function endpoint(token: string | null): string {
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  return `${protocol}//${window.location.host}${realtimePath}${query}`;
}

/** The app's one connection of the signed-in user. */
export const realtime = new RealtimeConnection({ url: () => endpoint(getAccessToken()) });

/**
 * An anonymous connection for public session topics (the display board, which runs on a
 * screen nobody signs in to): open only while a board listens.
 */
export const publicRealtime = new RealtimeConnection({ url: () => endpoint(null), onDemand: true });

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

/** Whether `connection` is up now (re-renders when that changes). */
export function useRealtimeConnected(connection: RealtimeConnection = realtime): boolean {
  return useSyncExternalStore(
    (listener) => connection.onStateChange(listener),
    () => connection.isConnected,
    () => connection.isConnected,
  );
}
