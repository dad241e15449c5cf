import { Outlet, ScrollRestoration } from 'react-router';
import { DocumentTitle } from '../components/DocumentTitle.tsx';
import { IncomingCalls } from '../components/IncomingCalls.tsx';
import { NavigationProgress } from '../components/NavigationProgress.tsx';
import { SkipLink } from '../components/SkipLink.tsx';

/**
 * Wraps every page: skip link first in the tab order, scroll to top on navigation, titles,
 * and (spec §2 "App shell") the incoming-call dialog wherever a signed-in user is.
 */
export function RootLayout() {
  return (
    <>
      <SkipLink />
      <NavigationProgress />
      <ScrollRestoration />
      <DocumentTitle />
      <Outlet />
      <IncomingCalls />
    </>
  );
}
