import { queryOptions, useQuery } from '@tanstack/react-query';
import { getMySessions } from '../../../entities/session/api.ts';
import { visitKeys } from './keys.ts';

function assignedSessionsQueryOptions(date: string) {
  return queryOptions({
    queryKey: visitKeys.assigned(date),
    queryFn: ({ signal }) => getMySessions(date, signal),
  });
}

export function useAssignedSessions(date: string, enabled: boolean) {
  return useQuery({ ...assignedSessionsQueryOptions(date), enabled });
}
