import type { IMessage, StompConfig } from '@stomp/stompjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuthSession } from './auth-session.ts';
import {
  connectRealtimeToAuth,
  maxAttemptsMessage,
  RealtimeConnection,
  type StompLike,
} from './stomp-client.ts';

class FakeClient implements StompLike {
  onConnect: StompConfig['onConnect'] = () => {};
  onStompError: StompConfig['onStompError'] = () => {};
  onWebSocketClose: StompConfig['onWebSocketClose'] = () => {};
  onWebSocketError: StompConfig['onWebSocketError'] = () => {};
  connected = false;
  active = false;
  readonly subscriptions: Array<{
    destination: string;
    callback: (m: IMessage) => void;
    gone: boolean;
  }> = [];
  readonly config: StompConfig;
  constructor(config: StompConfig) {
    this.config = config;
  }
  activate() {
    this.active = true;
  }
  deactivate() {
    this.active = false;
    this.connected = false;
  }
  subscribe(destination: string, callback: (m: IMessage) => void) {
    const entry = { destination, callback, gone: false };
    this.subscriptions.push(entry);
    return {
      unsubscribe: () => {
        entry.gone = true;
      },
    };
  }
  readonly published: Array<{ destination: string; body: string }> = [];
  publish(frame: { destination: string; body: string }) {
    this.published.push(frame);
  }
  // What the server does:
  accept() {
    this.connected = true;
    this.onConnect?.({} as never);
  }
  drop() {
    this.connected = false;
    this.onWebSocketError?.({} as never);
    this.onWebSocketClose?.({} as never);
  }
}

function setup(onDemand = false) {
  const clients: FakeClient[] = [];
  const logger = { info: vi.fn(), warn: vi.fn() };
  let token = 't1';
  const connection = new RealtimeConnection({
    onDemand,
    url: () => `ws://app/wss?token=${token}`,
    createClient: (config) => {
      const client = new FakeClient(config);
      clients.push(client);
      return client;
    },
    logger,
  });
  return { connection, clients, logger, setToken: (value: string) => (token = value) };
}

describe('RealtimeConnection reconnect policy (spec §8)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('uses 20000 ms heart-beats and leaves reconnecting to itself', () => {
    const { connection, clients } = setup();
    connection.start();
    expect(clients).toHaveLength(1);
    expect(clients[0]?.config).toMatchObject({
      heartbeatIncoming: 20000,
      heartbeatOutgoing: 20000,
      reconnectDelay: 0,
      brokerURL: 'ws://app/wss?token=t1',
    });
    connection.stop();
  });

  it('reconnects 5000 ms after an error or close (once for both), with the current token', () => {
    const { connection, clients, setToken } = setup();
    connection.start();
    clients[0]?.drop();
    setToken('t2');
    vi.advanceTimersByTime(4999);
    expect(clients).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(clients).toHaveLength(2);
    expect(clients[1]?.config.brokerURL).toBe('ws://app/wss?token=t2');
    expect(clients[0]?.active).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(clients).toHaveLength(2); // no attempt while the new one is pending or up
    connection.stop();
  });

  it('gives up after 100 attempts and logs that the maximum was reached', () => {
    const { connection, clients, logger } = setup();
    connection.start();
    for (let attempt = 1; attempt <= 100; attempt++) {
      clients.at(-1)?.drop();
      vi.advanceTimersByTime(5000);
      expect(clients).toHaveLength(attempt + 1);
    }
    expect(logger.warn).not.toHaveBeenCalled();
    clients.at(-1)?.drop();
    vi.advanceTimersByTime(60_000);
    expect(clients).toHaveLength(101);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]?.[0]).toContain(maxAttemptsMessage);
    expect(connection.isRunning).toBe(false);
  });

  it('counts attempts from the last successful connection', () => {
    const { connection, clients, logger } = setup();
    connection.start();
    for (let i = 0; i < 99; i++) {
      clients.at(-1)?.drop();
      vi.advanceTimersByTime(5000);
    }
    clients.at(-1)?.accept();
    expect(connection.attempts).toBe(0);
    for (let i = 0; i < 100; i++) {
      clients.at(-1)?.drop();
      vi.advanceTimersByTime(5000);
    }
    expect(logger.warn).not.toHaveBeenCalled();
    connection.stop();
  });

  it('publishes JSON only while connected, on the current client', () => {
    const { connection, clients } = setup();
    connection.start();
    expect(connection.publish('/app/call', { type: 'exit' })).toBe(false);
    clients[0]?.accept();
    expect(connection.publish('/app/call', { type: 'exit' })).toBe(true);
    expect(clients[0]?.published).toEqual([{ destination: '/app/call', body: '{"type":"exit"}' }]);
    clients[0]?.drop();
    expect(connection.publish('/app/call', { type: 'decline' })).toBe(false);
    vi.advanceTimersByTime(5000);
    clients[1]?.accept();
    expect(connection.publish('/app/call', { type: 'decline' })).toBe(true);
    expect(clients[0]?.published).toHaveLength(1);
    expect(clients[1]?.published).toHaveLength(1);
    connection.stop();
  });

  it('stop cancels a pending reconnect', () => {
    const { connection, clients } = setup();
    connection.start();
    clients[0]?.drop();
    connection.stop();
    vi.advanceTimersByTime(60_000);
    expect(clients).toHaveLength(1);
  });

  it('renews subscriptions on every CONNECTED and hands handlers parsed JSON', () => {
    const { connection, clients } = setup();
    const seen: unknown[] = [];
    const off = connection.subscribe('/topic/session/s1', (body) => seen.push(body));
    connection.start();
    clients[0]?.accept();
    expect(clients[0]?.subscriptions.map((s) => s.destination)).toEqual(['/topic/session/s1']);
    clients[0]?.drop();
    vi.advanceTimersByTime(5000);
    clients[1]?.accept();
    clients[1]?.subscriptions[0]?.callback({ body: '{"n":1}', headers: {} } as IMessage);
    expect(seen).toEqual([{ n: 1 }]);
    off();
    expect(clients[1]?.subscriptions[0]?.gone).toBe(true);
    connection.stop();
  });
});

describe('connectRealtimeToAuth (spec §4)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    setAuthSession(null);
    vi.useRealTimers();
  });

  it('connects for a user with an email, not without, and disconnects on sign-out and teardown', () => {
    const { connection, clients } = setup();
    const teardown = connectRealtimeToAuth(connection);
    expect(connection.isRunning).toBe(false);
    setAuthSession({ accessToken: 'a', user: { id: 'u1' } });
    expect(connection.isRunning).toBe(false); // no email (e.g. phone-only)
    setAuthSession({ accessToken: 'a', user: { id: 'u1', email: 'a@example.test' } });
    expect(connection.isRunning).toBe(true);
    setAuthSession({ accessToken: 'b', user: { id: 'u1', email: 'a@example.test' } });
    expect(clients).toHaveLength(1); // a refreshed token does not reconnect
    setAuthSession(null);
    expect(connection.isRunning).toBe(false);
    expect(clients[0]?.active).toBe(false);
    setAuthSession({ accessToken: 'c', user: { id: 'u2', email: 'b@example.test' } });
    expect(connection.isRunning).toBe(true);
    teardown();
    expect(connection.isRunning).toBe(false);
    expect(clients.at(-1)?.active).toBe(false);
  });
});

describe('connection state and on-demand connections', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is connected from CONNECTED until a loss, and tells its listeners', () => {
    const { connection, clients } = setup();
    const changes: boolean[] = [];
    connection.onStateChange(() => changes.push(connection.isConnected));
    connection.start();
    expect(connection.isConnected).toBe(false);
    clients[0]?.accept();
    expect(connection.isConnected).toBe(true);
    clients[0]?.drop();
    expect(connection.isConnected).toBe(false);
    vi.advanceTimersByTime(5000);
    clients[1]?.accept();
    connection.stop();
    expect(changes).toEqual([true, false, true, false]);
  });

  it('says when a topic is subscribed on the server, again after every reconnect', () => {
    const { connection, clients } = setup();
    const ready = vi.fn();
    connection.subscribe('/topic/session/s1', () => {}, ready);
    connection.start();
    expect(ready).not.toHaveBeenCalled();
    clients[0]?.accept();
    expect(ready).toHaveBeenCalledTimes(1);
    const late = vi.fn();
    connection.subscribe('/topic/session/s1', () => {}, late);
    expect(late).toHaveBeenCalledTimes(1); // already live on the server
    clients[0]?.drop();
    vi.advanceTimersByTime(5000);
    clients[1]?.accept();
    expect(ready).toHaveBeenCalledTimes(2);
    expect(late).toHaveBeenCalledTimes(2);
    connection.stop();
  });

  it('says so again after a message that follows skipped ones, once it is handled', () => {
    const { connection, clients } = setup();
    const order: string[] = [];
    connection.subscribe(
      '/topic/session/s1',
      (body) => order.push(`message ${JSON.stringify(body)}`),
      () => order.push('ready'),
    );
    connection.start();
    clients[0]?.accept();
    const deliver = clients[0]?.subscriptions[0]?.callback;
    deliver?.({ body: '{"n":1}', headers: {} } as IMessage);
    // A lagging client: the server sent only the latest, and said how many it skipped.
    deliver?.({ body: '{"n":5}', headers: { 'x-dropped': '3' } } as unknown as IMessage);
    expect(order).toEqual(['ready', 'message {"n":1}', 'message {"n":5}', 'ready']);
    connection.stop();
  });

  it('an on-demand connection opens, without a token, with its first listener and closes with its last', () => {
    const { connection, clients } = setup(true);
    expect(connection.isRunning).toBe(false);
    const off1 = connection.subscribe('/topic/session/s1', () => {});
    const off2 = connection.subscribe('/topic/session/s2', () => {});
    expect(connection.isRunning).toBe(true);
    expect(clients).toHaveLength(1);
    off1();
    expect(connection.isRunning).toBe(true);
    off2();
    expect(connection.isRunning).toBe(false);
    expect(clients[0]?.active).toBe(false);
  });
});
