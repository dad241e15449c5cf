import { queryOptions, useQuery } from '@tanstack/react-query';
import { userEndpoints } from '@upnext/contract/users';
import { api } from '../../lib/api-client.ts';
import { useCurrentUser } from '../../lib/auth-session.ts';
import { userKeys } from './keys.ts';

/**
 * `GET /user/user-data`: the signed-in user's roles record (companies and role in each, and
 * the `subscribeId` of their topic). Pending invitations are answered in features/invitations.
 */
function getUserData(signal?: AbortSignal) {
  return api.call(userEndpoints.getUserData, { signal });
}

/** Keyed by the user, so another account signing in never sees the previous record. */
function userDataQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...userKeys.data(), userId],
    queryFn: ({ signal }) => getUserData(signal),
  });
}

export function useUserData() {
  const user = useCurrentUser();
  return useQuery({ ...userDataQueryOptions(user?.id ?? 'anonymous'), enabled: Boolean(user) });
}

/**
 * Whether the signed-in user is an active member of some company (staff screens are for them;
 * a visitor sees their visits and account). False until the roles record says otherwise.
 */
export function useIsCompanyMember(): boolean {
  const userData = useUserData();
  return userData.data?.companies.some((company) => company.status === 'active') ?? false;
}
