import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserData } from '@upnext/contract/users';
import { api } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth-session.ts';
import { visitKeys, visitPaths } from './keys.ts';

/** `GET /user/user-data?userId=<email>`: the roles record, and the `subscribeId` of the user's topic. */
export function getUserData(email: string | undefined, signal?: AbortSignal): Promise<UserData> {
  return api.get<UserData>(visitPaths.userData, { query: { userId: email }, signal });
}

export function userDataQueryOptions(email: string | undefined) {
  return queryOptions({
    queryKey: visitKeys.userData(email ?? 'me'),
    queryFn: ({ signal }) => getUserData(email, signal),
    staleTime: 5 * 60_000,
  });
}

export function useVisitorData() {
  const user = useCurrentUser();
  return useQuery({ ...userDataQueryOptions(user?.email), enabled: Boolean(user) });
}
