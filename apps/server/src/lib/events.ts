/**
 * Where services hand realtime events after their transaction commits. The realtime module
 * implements it (local STOMP subscribers, and the bus to other instances); services only see
 * this interface, so they never publish an event for a write that rolled back.
 */
export type EventPublisher = {
  publish(destination: string, body: unknown): void;
};
