import { QueryClient } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { buildPath, requiresSignIn, spaRoutes } from '@upnext/contract/routes';
import { createMemoryRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { afterEach, describe, expect, it } from 'vitest';
import { setAuthSession } from '../lib/auth-session.ts';
import { AppProviders } from './AppProviders.tsx';
import { NOT_FOUND_ROUTE_ID, routes } from './router.tsx';

const sampleParams = {
  sessionId: 'session-1',
  subQueueId: 'counter-2',
  date: '2026-11-22',
  queueId: 'queue-1',
  meetingId: 'meeting-1',
  checkoutId: 'cs_sbx_sample000001',
  key: 'sample-status-link-key-of-forty-three-chars',
};

async function open(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProviders queryClient={new QueryClient()} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  // Lazy routes load their page's chunk first; on a loaded machine the first transform of a
  // large one (the reports page's charting library) takes well over waitFor's default second.
  await waitFor(
    () => {
      expect(router.state.initialized).toBe(true);
      expect(router.state.navigation.state).toBe('idle');
    },
    { timeout: 15_000 },
  );
  const leaf = router.state.matches.at(-1)?.route.id;
  return { router, leaf };
}

afterEach(() => {
  setAuthSession(null);
});

describe('router', () => {
  describe.each(Object.entries(spaRoutes))('%s (%s)', (_name, pattern) => {
    it('renders its own page, not the not-found page', { timeout: 30_000 }, async () => {
      setAuthSession({ accessToken: 't', user: { id: 'u1', email: 'staff@example.com' } });
      const { leaf } = await open(buildPath(pattern, sampleParams));
      expect(leaf).not.toBe(NOT_FOUND_ROUTE_ID);
      expect(
        await screen.findByRole('heading', { level: 1 }, { timeout: 15_000 }),
      ).toBeInTheDocument();
    });
  });

  it('renders the not-found page for an unknown path', async () => {
    const { leaf } = await open('/no-such-page/at-all');
    expect(leaf).toBe(NOT_FOUND_ROUTE_ID);
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
  });

  it.each(Object.values(spaRoutes).filter(requiresSignIn))(
    'guards %s when signed out',
    async (pattern) => {
      const path = buildPath(pattern, sampleParams);
      const { router } = await open(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
      expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent(path)}`);
    },
  );

  it('leaves /admin/payment-success open to signed-out visitors', async () => {
    const { router } = await open(spaRoutes.adminPaymentSuccess);
    expect(router.state.location.pathname).toBe(spaRoutes.adminPaymentSuccess);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'No payment to show' }),
    ).toBeInTheDocument();
  });

  it('shows the home page at both password-reset paths', async () => {
    await open(spaRoutes.home);
    const homeHeading = (await screen.findByRole('heading', { level: 1 })).textContent;
    for (const path of [spaRoutes.updatePassword, spaRoutes.updatePasswordAlias]) {
      cleanup();
      await open(path);
      expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(homeHeading);
    }
  });
});
