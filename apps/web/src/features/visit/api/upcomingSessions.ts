import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Session } from '@upnext/contract/sessions';
import { api } from '../../../lib/api-client.ts';
import { visitKeys, visitPaths } from './keys.ts';

/** `POST /queues/sessions/query`: a queue's sessions from `from` to `to` (local dates). */
export function queryUpcomingSessions(
  queueId: string,
  from: string,
  to: string,
  signal?: AbortSignal,
): Promise<Session[]> {
  return api.post<Session[]>(
    visitPaths.sessionsQuery,
    { queueId, from, to, status: ['scheduled', 'open', 'paused'], limit: 100 },
    { signal },
  );
}

export function upcomingSessionsQueryOptions(queueId: string, from: string, to: string) {
  return queryOptions({
    queryKey: visitKeys.sessions(queueId, from, to),
    queryFn: ({ signal }) => queryUpcomingSessions(queueId, from, to, signal),
    meta: { errorShownInline: true },
  });
}

export function useUpcomingSessions(queueId: string | undefined, from: string, to: string) {
  return useQuery({
    ...upcomingSessionsQueryOptions(queueId ?? '', from, to),
    enabled: Boolean(queueId),
  });
}
