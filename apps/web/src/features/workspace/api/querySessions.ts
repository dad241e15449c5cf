import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Session, SessionQuery } from '@upnext/contract/sessions';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';
import { sessionPaths } from './paths.ts';

export type SessionFilter = Pick<SessionQuery, 'companyId' | 'queueId' | 'from' | 'to'>;

/** `POST /queues/sessions/query`: sessions by company or queue and a date range. */
export function querySessions(filter: SessionFilter, signal?: AbortSignal): Promise<Session[]> {
  return api.post<Session[]>(sessionPaths.query, { ...filter, limit: 500 }, { signal });
}

export function sessionsQueryOptions(filter: SessionFilter) {
  return queryOptions({
    queryKey: workspaceKeys.sessionQuery(filter),
    queryFn: ({ signal }) => querySessions(filter, signal),
    // Keep the last day's list on screen while the next one loads (no flash of empty).
    placeholderData: keepPreviousData,
  });
}

export function useSessionsQuery(filter: SessionFilter) {
  return useQuery(sessionsQueryOptions(filter));
}
