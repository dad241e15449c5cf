import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Session } from '@upnext/contract/sessions';
import { api } from '../../../lib/api-client.ts';
import { visitKeys, visitPaths } from './keys.ts';

/** `GET /queues/sessions?date=`: the sessions of the sub-queues the staff member serves. */
export function getAssignedSessions(date: string, signal?: AbortSignal): Promise<Session[]> {
  return api.get<Session[]>(visitPaths.mySessions, { query: { date }, signal });
}

export function assignedSessionsQueryOptions(date: string) {
  return queryOptions({
    queryKey: visitKeys.assigned(date),
    queryFn: ({ signal }) => getAssignedSessions(date, signal),
  });
}

export function useAssignedSessions(date: string, enabled: boolean) {
  return useQuery({ ...assignedSessionsQueryOptions(date), enabled });
}
