import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useCurrentUser } from '../../lib/auth-session.ts';
import { withNamespaces } from '../../lib/i18n.ts';
import { DocumentTitle } from '../components/DocumentTitle.tsx';
import { NavigationProgress } from '../components/NavigationProgress.tsx';
import { SkipLink } from '../components/SkipLink.tsx';

// Loaded only once someone is signed in: the public pages never download the call code.
const CallHost = lazy(
  withNamespaces(
    () =>
      import('../../features/meeting/components/CallHost.tsx').then((module) => ({
        default: module.CallHost,
      })),
    'meeting',
    'chat',
  ),
);

/**
 * Wraps every page: skip link first in the tab order, scroll to top on navigation, titles,
 * and (spec §2 "App shell") the incoming-call dialog wherever a signed-in user is.
 */
export function RootLayout() {
  const user = useCurrentUser();
  return (
    <>
      <SkipLink />
      <NavigationProgress />
      <ScrollRestoration />
      <DocumentTitle />
      <Outlet />
      {user?.email ? (
        <Suspense fallback={null}>
          <CallHost key={user.id} />
        </Suspense>
      ) : null}
    </>
  );
}
