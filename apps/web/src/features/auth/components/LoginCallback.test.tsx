import { screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { safeRedirectPath } from '../../../lib/safe-redirect.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { LoginCallback } from './LoginCallback.tsx';

const auth = { getSession: vi.fn(), setSession: vi.fn() };
let initError: Error | null = null;

vi.mock('../../../lib/auth-client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/auth-client.ts')>()),
  getAuthClient: () => auth,
  authReady: () => Promise.resolve({ error: initError }),
}));

const signedIn = { data: { session: { access_token: 'a', user: { id: 'u1' } } } };

function visit(url: string) {
  window.history.replaceState(null, '', url);
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginCallback /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [url] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

afterEach(() => {
  vi.clearAllMocks();
  initError = null;
  window.history.replaceState(null, '', '/');
});

describe('safeRedirectPath', () => {
  it.each([
    ['/admin/queues?day=mon#top', '/admin/queues?day=mon#top'],
    ['/admin/account', '/admin/account'],
    ['//evil.example/x', '/admin'],
    ['/\\evil.example', '/admin'],
    ['https://evil.example/admin', '/admin'],
    ['javascript:alert(1)', '/admin'],
    ['admin', '/admin'],
    ['', '/admin'],
    [null, '/admin'],
  ])('%s -> %s', (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });
});

describe('LoginCallback', () => {
  it('goes on to the redirect path once auth-js has the session', async () => {
    auth.getSession.mockResolvedValue(signedIn);
    const router = visit('/login?redirect=%2Fadmin%2Fcompany%3Ftab%3Dusers');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/company'));
    expect(router.state.location.search).toBe('?tab=users');
  });

  it('ignores a redirect to another origin', async () => {
    auth.getSession.mockResolvedValue(signedIn);
    const router = visit(`/login?redirect=${encodeURIComponent('https://evil.example/')}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
  });

  it("shows auth-js's error for a failed exchange or an error in the URL", async () => {
    initError = new Error('Email link is invalid or has expired');
    auth.getSession.mockResolvedValue({ data: { session: null } });
    visit('/login?redirect=%2Fadmin#error=access_denied&error_code=otp_expired');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Email link is invalid or has expired',
    );
  });

  it('takes an implicit-flow session from the fragment', async () => {
    auth.setSession.mockResolvedValue({ data: {}, error: null });
    auth.getSession.mockResolvedValue(signedIn);
    const router = visit(
      '/login?redirect=%2Fadmin#access_token=at&expires_in=3600&refresh_token=rt&token_type=bearer',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(auth.setSession).toHaveBeenCalledWith({ access_token: 'at', refresh_token: 'rt' });
  });

  it("reports 'No session defined in URL' for an incomplete fragment", async () => {
    auth.getSession.mockResolvedValue({ data: { session: null } });
    visit('/login#access_token=at&expires_in=3600');
    expect(await screen.findByRole('alert')).toHaveTextContent('No session defined in URL');
    expect(auth.setSession).not.toHaveBeenCalled();
  });

  it('explains a code opened in another browser', async () => {
    auth.getSession.mockResolvedValue({ data: { session: null } });
    visit('/login?code=abc&redirect=%2Fadmin');
    expect(await screen.findByRole('alert')).toHaveTextContent(/different browser/);
  });
});
