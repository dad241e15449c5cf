import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionQuery } from '@upnext/contract/sessions';
import { querySessions } from '../../../entities/session/api.ts';
import { workspaceKeys } from './keys.ts';

export type SessionFilter = Pick<SessionQuery, 'companyId' | 'queueId' | 'from' | 'to'>;

function sessionsQueryOptions(filter: SessionFilter) {
  return queryOptions({
    queryKey: workspaceKeys.sessionQuery(filter),
    queryFn: ({ signal }) => querySessions({ ...filter, limit: 500 }, signal),
    // Keep the last day's list on screen while the next one loads (no flash of empty).
    placeholderData: keepPreviousData,
  });
}

export function useSessionsQuery(filter: SessionFilter) {
  return useQuery(sessionsQueryOptions(filter));
}
