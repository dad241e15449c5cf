import { spaRoutes } from '@upnext/contract/routes';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useAuthStatus, useCurrentUser, wasSignedOutByUser } from '../lib/auth-session.ts';
import { PageLoader } from './components/PageLoader.tsx';

/**
 * Guards the routes for which `requiresSignIn` is true (spec §2): a signed-out visitor goes
 * to the home page with the intended path and query in `redirect`, to come back after sign-in.
 * While the auth client is still reading its stored session the guard waits, so reloading a
 * guarded page keeps a signed-in user where they are. A session still waiting for its MFA code
 * counts as signed out (the sign-in dialog then opens at the code step). After the user's own
 * sign-out the guard simply goes home.
 */
export function RequireSignIn() {
  const status = useAuthStatus();
  const user = useCurrentUser();
  const { pathname, search } = useLocation();
  if (status === 'loading') return <PageLoader />;
  if (!user) {
    // Signing out from a guarded page is leaving, not a reason to come back after sign-in.
    if (wasSignedOutByUser()) return <Navigate to={spaRoutes.home} replace />;
    return (
      <Navigate
        to={`${spaRoutes.home}?redirect=${encodeURIComponent(pathname + search)}`}
        replace
      />
    );
  }
  return <Outlet />;
}
