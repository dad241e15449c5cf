import { queryOptions, useQuery } from '@tanstack/react-query';
import { querySessions } from '../../../entities/session/api.ts';
import { visitKeys } from './keys.ts';

/** A queue's sessions a visitor may still join, from `from` to `to` (local dates). */
function queryUpcomingSessions(queueId: string, from: string, to: string, signal?: AbortSignal) {
  const status = ['scheduled', 'open', 'paused'] as const;
  return querySessions({ queueId, from, to, status: [...status], limit: 100 }, signal);
}

function upcomingSessionsQueryOptions(queueId: string, from: string, to: string) {
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
