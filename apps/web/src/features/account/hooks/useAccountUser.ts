import { useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchAuthSettings, getAuthClient } from '../../../lib/auth-client.ts';

const accountUserKey = ['auth', 'user'] as const;

/** GET /auth/v1/user: the full user (identities, factors, pending changes), fresh. */
export function useAccountUser() {
  return useQuery({
    queryKey: accountUserKey,
    queryFn: async () => {
      const { data, error } = await getAuthClient().getUser();
      if (error) throw error;
      return data.user;
    },
  });
}

export function useAuthSettingsQuery() {
  return useQuery({
    queryKey: ['auth', 'settings'],
    queryFn: fetchAuthSettings,
    staleTime: 300_000,
  });
}

/** Re-read the user after a change (USER_UPDATED also does it, but not every change emits it). */
export function useRefreshUser() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: accountUserKey });
}
