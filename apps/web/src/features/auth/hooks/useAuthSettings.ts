import { useQuery } from '@tanstack/react-query';
import { fetchAuthSettings } from '../../../lib/auth-client.ts';

/** GET /auth/v1/settings: which sign-in methods and OAuth providers are switched on. */
export function useAuthSettings() {
  return useQuery({
    queryKey: ['auth', 'settings'],
    queryFn: fetchAuthSettings,
    staleTime: 5 * 60_000,
  });
}
