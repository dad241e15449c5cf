import { type PreparedMessage, prepareMessage } from './stomp-frame.ts';

/**
 * Local subscriptions of this instance: destination -> subscribers. `deliver` serialises the
 * body and the headers all subscribers share once, and hands that to every subscriber of
 * exactly that destination (no wildcards).
 */
export type Subscriber = {
  /** Sends one MESSAGE frame of `message` on this subscription. */
  deliver(message: PreparedMessage): void;
};

export class LocalBroker {
  private readonly byDestination = new Map<string, Set<Subscriber>>();

  add(destination: string, subscriber: Subscriber): void {
    let set = this.byDestination.get(destination);
    if (!set) {
      set = new Set();
      this.byDestination.set(destination, set);
    }
    set.add(subscriber);
  }

  remove(destination: string, subscriber: Subscriber): void {
    const set = this.byDestination.get(destination);
    if (!set) return;
    set.delete(subscriber);
    if (set.size === 0) this.byDestination.delete(destination);
  }

  deliver(destination: string, body: string): number {
    const set = this.byDestination.get(destination);
    if (!set) return 0;
    const message = prepareMessage(destination, body);
    for (const subscriber of set) subscriber.deliver(message);
    return set.size;
  }

  subscriberCount(destination: string): number {
    return this.byDestination.get(destination)?.size ?? 0;
  }
}
