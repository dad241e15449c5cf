import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Session } from '@upnext/contract/sessions';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';
import { sessionPaths } from './paths.ts';

/**
 * `GET /queues/sessions`: the sessions of the sub-queues the signed-in staff member serves;
 * `date` defaults to today in the browser's zone (X-user-timezone).
 */
export function getMySessions(date?: string, signal?: AbortSignal): Promise<Session[]> {
  return api.get<Session[]>(sessionPaths.mine, { query: { date }, signal });
}

export function mySessionsQueryOptions(date?: string) {
  return queryOptions({
    queryKey: workspaceKeys.mySessions(date),
    queryFn: ({ signal }) => getMySessions(date, signal),
  });
}

export function useMySessions(date?: string) {
  return useQuery(mySessionsQueryOptions(date));
}
