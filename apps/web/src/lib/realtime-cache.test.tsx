import type { IMessage, StompConfig } from '@stomp/stompjs';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FALLBACK_POLL_MS,
  FALLBACK_POLL_STORAGE_KEY,
  registerRealtime,
  useLiveRefetchInterval,
  useLiveTopic,
} from './realtime-cache.ts';
import { RealtimeConnection, type StompLike } from './stomp-client.ts';

/** A connection over a fake STOMP client: `accept` is the server's CONNECTED. */
function fakeConnection() {
  const subscriptions = new Map<string, (message: IMessage) => void>();
  let client: (StompLike & { accept(): void }) | undefined;
  const connection = new RealtimeConnection({
    url: () => 'ws://app/wss',
    createClient: (config: StompConfig) => {
      const fake = {
        ...config,
        connected: false,
        activate() {},
        deactivate() {},
        subscribe(destination: string, callback: (message: IMessage) => void) {
          subscriptions.set(destination, callback);
          return { unsubscribe: () => subscriptions.delete(destination) };
        },
        publish() {},
        accept() {
          fake.connected = true;
          fake.onConnect?.({} as never);
        },
      } as StompLike & { accept(): void; connected: boolean };
      client = fake;
      return fake;
    },
  });
  const send = (destination: string, body: unknown, headers: Record<string, string> = {}) =>
    subscriptions.get(destination)?.({ body: JSON.stringify(body), headers } as IMessage);
  return { connection, send, accept: () => client?.accept(), subscriptions };
}

function wrapper(queryClient: QueryClient) {
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
}

const removals: Array<() => void> = [];
afterEach(() => {
  for (const remove of removals.splice(0)) remove();
  localStorage.clear();
});

describe('the realtime cache registry', () => {
  it("applies an event to the cache through every rule whose pattern matches, with the topic's params", () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(['count', 's1'], 0);
    const apply = vi.fn((event: unknown, client: QueryClient, params: Record<string, string>) =>
      client.setQueryData(
        ['count', params.sessionId],
        (n: number) => n + (event as { n: number }).n,
      ),
    );
    removals.push(registerRealtime('/topic/session/:sessionId', { apply, resync: () => {} }));
    const other = vi.fn();
    removals.push(registerRealtime('/topic/user/:subscribeId', { apply: other, resync: () => {} }));
    const { connection, send, accept } = fakeConnection();
    connection.start();
    accept();
    const { unmount } = renderHook(() => useLiveTopic('/topic/session/s1', connection), {
      wrapper: wrapper(queryClient),
    });
    send('/topic/session/s1', { n: 2 });
    expect(queryClient.getQueryData(['count', 's1'])).toBe(2);
    expect(apply).toHaveBeenCalledWith({ n: 2 }, queryClient, { sessionId: 's1' });
    expect(other).not.toHaveBeenCalled();
    unmount();
    send('/topic/session/s1', { n: 2 });
    expect(apply).toHaveBeenCalledTimes(1);
    connection.stop();
  });

  it('resyncs when the topic is subscribed (events may have been missed meanwhile)', () => {
    const queryClient = new QueryClient();
    const resync = vi.fn();
    removals.push(registerRealtime('/topic/session/:sessionId', { apply: () => {}, resync }));
    const { connection, accept } = fakeConnection();
    renderHook(() => useLiveTopic('/topic/session/s9', connection), {
      wrapper: wrapper(queryClient),
    });
    connection.start();
    expect(resync).not.toHaveBeenCalled();
    accept();
    expect(resync).toHaveBeenCalledWith(queryClient, { sessionId: 's9' });
    connection.stop();
  });

  it('resyncs after the event that follows ones the server skipped (a lagging client)', () => {
    const queryClient = new QueryClient();
    const order: string[] = [];
    removals.push(
      registerRealtime('/topic/session/:sessionId', {
        apply: () => order.push('apply'),
        resync: () => order.push('resync'),
      }),
    );
    const { connection, send, accept } = fakeConnection();
    connection.start();
    accept();
    renderHook(() => useLiveTopic('/topic/session/s3', connection), {
      wrapper: wrapper(queryClient),
    });
    send('/topic/session/s3', { n: 1 });
    send('/topic/session/s3', { n: 9 }, { 'x-dropped': '7' });
    expect(order).toEqual(['resync', 'apply', 'apply', 'resync']);
    connection.stop();
  });
});

describe('useLiveRefetchInterval', () => {
  it('polls only while the connection is down', () => {
    const { connection, accept } = fakeConnection();
    const { result } = renderHook(() => useLiveRefetchInterval(connection));
    expect(result.current).toBe(FALLBACK_POLL_MS);
    connection.start();
    act(() => accept());
    expect(result.current).toBe(false);
    act(() => connection.stop());
    expect(result.current).toBe(FALLBACK_POLL_MS);
  });

  it('takes a longer fallback from localStorage (the end-to-end journeys set one)', () => {
    localStorage.setItem(FALLBACK_POLL_STORAGE_KEY, '600000');
    const { connection } = fakeConnection();
    const { result } = renderHook(() => useLiveRefetchInterval(connection));
    expect(result.current).toBe(600_000);
  });
});
