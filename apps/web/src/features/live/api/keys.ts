import type { TokenStatus } from '@upnext/contract/tokens';

/** Query keys of the live feature: everything of one session sits under `session(id)`. */
export const liveKeys = {
  all: ['live'] as const,
  session: (sessionId: string) => [...liveKeys.all, 'session', sessionId] as const,
  tokens: (sessionId: string, statuses: readonly TokenStatus[] | undefined) =>
    [...liveKeys.session(sessionId), 'tokens', statuses ?? 'all'] as const,
  serviceTimes: (sessionId: string) => [...liveKeys.session(sessionId), 'service-times'] as const,
  queue: (queueId: string) => [...liveKeys.all, 'queue', queueId] as const,
};
