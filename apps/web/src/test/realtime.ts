import type { MessageHandler } from '../lib/stomp-client.ts';

/**
 * Stands in for `lib/stomp-client.ts`' connections in screen tests:
 *
 *   vi.mock('../../lib/stomp-client.ts', async (original) =>
 *     (await import('../../test/realtime.ts')).mockStompClient(await original()));
 *
 * then `fakeRealtime(realtime).send(destination, event)` delivers an event as the server would.
 */
export class FakeRealtime {
  readonly handlers = new Map<string, Set<MessageHandler>>();
  isConnected = true;

  subscribe(destination: string, handler: MessageHandler, onReady?: () => void): () => void {
    const set = this.handlers.get(destination) ?? new Set();
    this.handlers.set(destination, set);
    set.add(handler);
    onReady?.();
    return () => set.delete(handler);
  }

  /** What the screen SENT (e.g. call messages to `/app/call`), in order. */
  readonly published: Array<{ destination: string; body: unknown }> = [];

  publish(destination: string, body: unknown): boolean {
    if (!this.isConnected) return false;
    this.published.push({ destination, body });
    return true;
  }

  onStateChange(): () => void {
    return () => {};
  }

  /** Topics someone listens to now. */
  get topics(): string[] {
    return [...this.handlers].filter(([, set]) => set.size > 0).map(([topic]) => topic);
  }

  send(destination: string, body: unknown): void {
    for (const handler of this.handlers.get(destination) ?? []) handler(body, {} as never);
  }
}

export function mockStompClient<T extends object>(actual: T): T {
  return { ...actual, realtime: new FakeRealtime(), publicRealtime: new FakeRealtime() };
}

export function fakeRealtime(connection: unknown): FakeRealtime {
  if (!(connection instanceof FakeRealtime)) throw new Error('stomp-client.ts is not mocked');
  return connection;
}
