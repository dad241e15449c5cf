/**
 * Realtime constants and topic names without zod, so the web app's first chunk can use them
 * (the event schemas in realtime.ts are loaded by the features that validate events).
 */
export const realtimePath = '/wss';
export const stompHeartbeatMs = 20_000;
/** Spec §8: after an error or a close, reconnect every 5000 ms, at most 100 times. */
export const reconnectDelayMs = 5000;
export const maxReconnectAttempts = 100;

/**
 * A MESSAGE header: the server skipped this many earlier messages of the subscription while
 * the client was too far behind to take them. The message itself is the latest; whatever the
 * skipped ones changed is to be read again.
 */
export const droppedHeader = 'x-dropped';

export const topics = {
  session: (sessionId: string) => `/topic/session/${sessionId}`,
  user: (subscribeId: string) => `/topic/user/${subscribeId}`,
  meeting: (subscribeId: string) => `/topic/meeting/${subscribeId}`,
  /** A status link's visit: its session's public events, for whoever holds the link's key. */
  visit: (key: string) => `/topic/visit/${key}`,
} as const;
/** The only destination clients SEND to. */
export const callDestination = '/app/call';
