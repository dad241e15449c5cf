import { useEffect } from 'react';
import { createBrowserRouter, matchRoutes } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { bootAuth } from '../lib/auth-boot.ts';
import { queryClient } from '../lib/query-client.ts';
import { AppProviders } from './AppProviders.tsx';
import { routes } from './router.tsx';

type Router = ReturnType<typeof createBrowserRouter>;

// Before the router: with a stored session or a link's answer in the URL, the guards wait.
bootAuth();

/**
 * A prerendered page (`prerender.ts`) has its routes' code and texts loaded first, so the
 * router's first render is the page itself, as the markup to hydrate shows it.
 */
export async function createAppRouter(prerendered: boolean): Promise<Router> {
  if (prerendered) {
    const matches = matchRoutes(routes, window.location) ?? [];
    await Promise.all(
      matches.map(async ({ route }) => {
        if (typeof route.lazy !== 'function') return;
        Object.assign(route, { ...(await route.lazy()), lazy: undefined });
      }),
    );
  }
  return createBrowserRouter(routes);
}

/** `onLive`: once the first render is on screen (a prerendered page then takes clicks). */
export function App({ router, onLive }: { router: Router; onLive?: () => void }) {
  // A hook, not an element: the tree stays the one the prerender rendered.
  useEffect(() => onLive?.(), [onLive]);
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
