import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthSettings } from '../../../lib/auth-client.ts';
import { setAuthSession } from '../../../lib/auth-session.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { SignInDialog } from './SignInDialog.tsx';

const session = { access_token: 'a', refresh_token: 'r', expires_in: 3600, user: { id: 'u1' } };

const auth = {
  signInWithPassword: vi.fn(),
  signUp: vi.fn(),
  signInWithOtp: vi.fn(),
  verifyOtp: vi.fn(),
  resetPasswordForEmail: vi.fn(),
  signInWithOAuth: vi.fn(),
  signOut: vi.fn(),
  mfa: {
    getAuthenticatorAssuranceLevel: vi.fn(),
    listFactors: vi.fn(),
    challenge: vi.fn(),
    verify: vi.fn(),
    challengeAndVerify: vi.fn(),
  },
};
let settings: AuthSettings = { external: { email: true, phone: false } };

vi.mock('../../../lib/auth-client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/auth-client.ts')>()),
  getAuthClient: () => auth,
  fetchAuthSettings: () => Promise.resolve(settings),
}));

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="location">{pathname + search}</p>;
}

function open(redirectTo: string | null = null) {
  const onClose = vi.fn();
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <SignInDialog opened onClose={onClose} redirectTo={redirectTo} />,
      },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: ['/'] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return { router, onClose, user: userEvent.setup() };
}

beforeEach(() => {
  settings = { external: { email: true, phone: false } };
  auth.mfa.getAuthenticatorAssuranceLevel.mockResolvedValue({
    data: { currentLevel: 'aal1', nextLevel: 'aal1', currentAuthenticationMethods: [] },
    error: null,
  });
});

afterEach(() => {
  vi.clearAllMocks();
  setAuthSession(null);
});

describe('SignInDialog', () => {
  it('asks for an email or phone and a password with the spec §5 message, calling nothing', async () => {
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^You must provide either an email or phone number and a password$/,
    );
    await user.type(screen.getByLabelText('Email'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'You must provide either an email or phone number and a password',
    );
    expect(auth.signInWithPassword).not.toHaveBeenCalled();
  });

  it('signs in with email and password, then goes to the same-origin redirect', async () => {
    auth.signInWithPassword.mockResolvedValue({
      data: { session, user: session.user },
      error: null,
    });
    const { user, router, onClose } = open('/admin/queues?day=mon');
    await user.type(await screen.findByLabelText('Email'), ' ana@example.com ');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/queues'));
    expect(router.state.location.search).toBe('?day=mon');
    expect(onClose).toHaveBeenCalled();
    expect(auth.signInWithPassword).toHaveBeenCalledWith({
      email: 'ana@example.com',
      password: 'correct horse',
    });
  });

  it('never follows a redirect to another origin', async () => {
    auth.signInWithPassword.mockResolvedValue({
      data: { session, user: session.user },
      error: null,
    });
    const { user, router } = open('//evil.example/steal');
    await user.type(await screen.findByLabelText('Email'), 'ana@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
  });

  it("shows auth-js's error message as is", async () => {
    auth.signInWithPassword.mockResolvedValue({
      data: { session: null, user: null },
      error: Object.assign(new Error('Invalid login credentials'), { code: 'invalid_credentials' }),
    });
    const { user, router } = open();
    await user.type(await screen.findByLabelText('Email'), 'ana@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid login credentials');
    expect(router.state.location.pathname).toBe('/');
  });

  it('signs in by phone when the phone provider is on', async () => {
    settings = { external: { email: true, phone: true } };
    auth.signInWithPassword.mockResolvedValue({
      data: { session, user: session.user },
      error: null,
    });
    const { user } = open();
    await user.click(await screen.findByText('Phone'));
    await user.type(screen.getByLabelText('Phone number'), '+447700900123');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(auth.signInWithPassword).toHaveBeenCalledWith({
        phone: '+447700900123',
        password: 'correct horse',
      }),
    );
  });

  it('sends a one-time code by email, then verifies the code entered', async () => {
    auth.signInWithOtp.mockResolvedValue({ data: {}, error: null });
    auth.verifyOtp.mockResolvedValue({ data: { session, user: session.user }, error: null });
    const { user, router } = open('/admin/account');
    await user.click(await screen.findByRole('button', { name: /one-time code instead/ }));
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You must provide either an email or phone number',
    );
    await user.type(screen.getByLabelText('Email'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    const code = await screen.findByLabelText('Code');
    expect(auth.signInWithOtp).toHaveBeenCalledWith({
      email: 'ana@example.com',
      options: {
        emailRedirectTo: `${window.location.origin}/login?redirect=%2Fadmin%2Faccount`,
      },
    });
    await user.type(code, '12a3456');
    expect(code).toHaveValue('123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/account'));
    expect(auth.verifyOtp).toHaveBeenCalledWith({
      email: 'ana@example.com',
      token: '123456',
      type: 'email',
    });
  });

  it('signs up and shows the confirmation message when no session comes back', async () => {
    auth.signUp.mockResolvedValue({ data: { session: null, user: { id: 'u2' } }, error: null });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: /Create one/ }));
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'a long password');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      /We sent a confirmation to new@example.com/,
    );
    expect(auth.signUp).toHaveBeenCalledWith({
      email: 'new@example.com',
      password: 'a long password',
      options: { emailRedirectTo: `${window.location.origin}/login?redirect=%2Fadmin` },
    });
  });

  it('asks for the TOTP code when the user has a verified factor (aal1 -> aal2)', async () => {
    auth.signInWithPassword.mockResolvedValue({
      data: { session, user: session.user },
      error: null,
    });
    auth.mfa.getAuthenticatorAssuranceLevel.mockResolvedValue({
      data: { currentLevel: 'aal1', nextLevel: 'aal2', currentAuthenticationMethods: [] },
      error: null,
    });
    auth.mfa.listFactors.mockResolvedValue({
      data: { all: [], totp: [{ id: 'f1', factor_type: 'totp', status: 'verified' }], phone: [] },
      error: null,
    });
    auth.mfa.challengeAndVerify
      .mockResolvedValueOnce({ data: null, error: new Error('Invalid TOTP code entered') })
      .mockResolvedValueOnce({ data: session, error: null });
    const { user, router } = open('/admin/company');
    await user.type(await screen.findByLabelText('Email'), 'ana@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(
      await screen.findByRole('heading', { name: 'Two-factor authentication' }),
    ).toBeInTheDocument();
    const code = await screen.findByLabelText('Code');
    expect(router.state.location.pathname).toBe('/');
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid TOTP code entered');
    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/company'));
    expect(auth.mfa.challengeAndVerify).toHaveBeenLastCalledWith({
      factorId: 'f1',
      code: '123456',
    });
  });

  it('opens at the code step for a session still waiting for its second factor', async () => {
    setAuthSession({ accessToken: 'a', user: { id: 'u1' } }, true);
    auth.mfa.listFactors.mockResolvedValue({
      data: { all: [], totp: [{ id: 'f1', factor_type: 'totp', status: 'verified' }], phone: [] },
      error: null,
    });
    open();
    expect(
      await screen.findByRole('heading', { name: 'Two-factor authentication' }),
    ).toBeInTheDocument();
    expect(await screen.findByLabelText('Code')).toBeInTheDocument();
  });

  it('offers the OAuth providers the server reports enabled, returning through /login', async () => {
    settings = { external: { email: true, phone: false, google: true, github: false } };
    auth.signInWithOAuth.mockResolvedValue({ data: {}, error: null });
    const { user } = open('/admin/queues');
    await user.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    expect(screen.queryByRole('button', { name: /GitHub/ })).not.toBeInTheDocument();
    expect(auth.signInWithOAuth).toHaveBeenCalledWith({
      provider: 'google',
      options: { redirectTo: `${window.location.origin}/login?redirect=%2Fadmin%2Fqueues` },
    });
  });

  it('names a generic OpenID Connect provider as the server labels it', async () => {
    settings = {
      external: { email: true, phone: false, oidc: true },
      external_labels: { oidc: 'Harbour SSO' },
    };
    open();
    expect(
      await screen.findByRole('button', { name: 'Continue with Harbour SSO' }),
    ).toBeInTheDocument();
  });

  it('sends the recovery email to the address given', async () => {
    auth.resetPasswordForEmail.mockResolvedValue({ data: {}, error: null });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Forgot your password?' }));
    await user.type(screen.getByLabelText('Email'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Send the reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(/ana@example.com/);
    expect(auth.resetPasswordForEmail).toHaveBeenCalledWith('ana@example.com', {
      redirectTo: `${window.location.origin}/update-password`,
    });
  });
});
