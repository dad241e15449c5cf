import { spaRoutes } from '@upnext/contract/routes';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useCurrentUser } from '../lib/auth-session.ts';

/**
 * Guards the routes for which `requiresSignIn` is true (spec §2): a signed-out visitor goes
 * to the home page with the intended path and query in `redirect`, to come back after sign-in.
 */
export function RequireSignIn() {
  const user = useCurrentUser();
  const { pathname, search } = useLocation();
  if (!user) {
    return (
      <Navigate
        to={`${spaRoutes.home}?redirect=${encodeURIComponent(pathname + search)}`}
        replace
      />
    );
  }
  return <Outlet />;
}
