import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@upnext/contract/api-paths';
import type { UserData } from '@upnext/contract/users';
import { api } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth-session.ts';
import { workspaceKeys } from './keys.ts';

/** `GET /user/user-data`: the signed-in user's roles record (companies and role in each). */
export function getUserData(signal?: AbortSignal): Promise<UserData> {
  return api.get<UserData>(apiPaths.userData, { signal });
}

export function userDataQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...workspaceKeys.userData(), userId],
    queryFn: ({ signal }) => getUserData(signal),
  });
}

export function useUserData() {
  const user = useCurrentUser();
  return useQuery({ ...userDataQueryOptions(user?.id ?? 'anonymous'), enabled: Boolean(user) });
}
