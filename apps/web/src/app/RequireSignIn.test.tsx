import type { Session } from '@supabase/auth-js';
import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { applySession } from '../lib/auth-client.ts';
import { markAuthLoading, setAuthSession } from '../lib/auth-session.ts';
import { renderWithProviders } from '../test/render.tsx';
import { RequireSignIn } from './RequireSignIn.tsx';

function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '');
  return `${part({ alg: 'ES256', typ: 'JWT' })}.${part(claims)}.signature`;
}

/** A session as auth-js hands it over (the store is fed by applySession on every event). */
function authJsSession(aal: 'aal1' | 'aal2', factors: Session['user']['factors'] = []): Session {
  return {
    access_token: jwt({ sub: 'u1', aal, role: 'authenticated' }),
    refresh_token: 'refresh',
    expires_in: 3600,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    token_type: 'bearer',
    user: {
      id: 'u1',
      aud: 'authenticated',
      email: 'staff@example.com',
      app_metadata: { provider: 'email' },
      user_metadata: { display_name: 'Staff' },
      created_at: new Date().toISOString(),
      factors,
    },
  } as Session;
}

const verifiedTotp = [
  {
    id: 'f1',
    factor_type: 'totp',
    status: 'verified',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  },
] as Session['user']['factors'];

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="location">{pathname + search}</p>;
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <Where /> },
      {
        path: '/admin',
        element: <RequireSignIn />,
        children: [{ path: '/admin/queues', element: <h1>Queues</h1> }],
      },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

afterEach(() => {
  setAuthSession(null);
});

describe('RequireSignIn', () => {
  it('sends a signed-out visitor home with the intended path and query in redirect', async () => {
    const router = renderAt('/admin/queues?x=1&day=mon');
    expect(await screen.findByTestId('location')).toHaveTextContent(
      '/?redirect=%2Fadmin%2Fqueues%3Fx%3D1%26day%3Dmon',
    );
    // Replaced, not pushed: Back must not bounce the visitor into the guard again.
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('renders the page for a signed-in user', async () => {
    setAuthSession({ accessToken: 't', user: { id: 'u1', email: 'staff@example.com' } });
    renderAt('/admin/queues');
    expect(await screen.findByRole('heading', { name: 'Queues' })).toBeInTheDocument();
  });

  it('renders the page for a session from auth-js', async () => {
    applySession(authJsSession('aal1'));
    renderAt('/admin/queues');
    expect(await screen.findByRole('heading', { name: 'Queues' })).toBeInTheDocument();
  });

  it('treats a session still waiting for its second factor as signed out', async () => {
    applySession(authJsSession('aal1', verifiedTotp));
    renderAt('/admin/queues');
    expect(await screen.findByTestId('location')).toHaveTextContent('/?redirect=%2Fadmin%2Fqueues');
  });

  it('lets the aal2 session of a user with MFA in', async () => {
    applySession(authJsSession('aal2', verifiedTotp));
    renderAt('/admin/queues');
    expect(await screen.findByRole('heading', { name: 'Queues' })).toBeInTheDocument();
  });

  it('waits, without redirecting, while the stored session is being read', async () => {
    markAuthLoading();
    renderAt('/admin/queues');
    expect(await screen.findByLabelText('Loading…')).toBeInTheDocument();
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
    applySession(authJsSession('aal1'));
    expect(await screen.findByRole('heading', { name: 'Queues' })).toBeInTheDocument();
  });
});
