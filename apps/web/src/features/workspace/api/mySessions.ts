import { queryOptions, useQuery } from '@tanstack/react-query';
import { getMySessions } from '../../../entities/session/api.ts';
import { workspaceKeys } from './keys.ts';

function mySessionsQueryOptions(date?: string) {
  return queryOptions({
    queryKey: workspaceKeys.mySessions(date),
    queryFn: ({ signal }) => getMySessions(date, signal),
  });
}

export function useMySessions(date?: string) {
  return useQuery(mySessionsQueryOptions(date));
}
