import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { setAuthSession } from '../lib/auth-session.ts';
import { RequireSignIn } from './RequireSignIn.tsx';

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
  render(<RouterProvider router={router} />);
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
});
