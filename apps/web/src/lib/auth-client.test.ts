import type { Session } from '@supabase/auth-js';
import { QueryClient } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTH_STORAGE_KEY } from './auth-boot.ts';
import { createAuthClient, startAuth, usePasswordRecovery } from './auth-client.ts';
import { getAuthStatus, getCurrentUser } from './auth-session.ts';

function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '');
  return `${part({ alg: 'ES256', typ: 'JWT' })}.${part(claims)}.signature`;
}

const invitee = {
  access_token: jwt({ sub: 'u9', aal: 'aal1', exp: Math.floor(Date.now() / 1000) + 3600 }),
  refresh_token: 'refresh-9',
  expires_in: 3600,
  expires_at: Math.floor(Date.now() / 1000) + 3600,
  token_type: 'bearer',
  user: {
    id: 'u9',
    aud: 'authenticated',
    email: 'new.staff@example.com',
    app_metadata: {},
    user_metadata: {},
    created_at: '2026-11-25T00:00:00Z',
  },
} as Session;

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('the auth client and the join link (bug 4.6)', () => {
  // After a one-time-code sign-in a PKCE verifier stays in storage.
  const verifierLeftBehind = () =>
    localStorage.setItem(`${AUTH_STORAGE_KEY}-code-verifier`, JSON.stringify('verifier/PASSWORD'));

  async function tokenCallsOn(path: string): Promise<string[]> {
    const fetchMock = vi.fn<typeof fetch>(
      async () => new Response(JSON.stringify({ code: 404, msg: 'Not found' }), { status: 404 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    verifierLeftBehind();
    window.history.replaceState(null, '', path);
    await createAuthClient().initialize();
    return fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/token'));
  }

  it('does not exchange a join code as a PKCE code on /join', async () => {
    expect(await tokenCallsOn('/join?code=HARBOUR')).toEqual([]);
    expect(window.location.search).toBe('?code=HARBOUR'); // the join page still reads it
  });

  it('still exchanges an auth link’s code on the sign-in callback', async () => {
    expect(await tokenCallsOn('/login?code=abc123')).toEqual([
      expect.stringContaining('/auth/v1/token?grant_type=pkce'),
    ]);
  });
});

describe('a staff invitation’s link (bug 4.5)', () => {
  it('keeps the guard waiting until the fragment’s session is taken, then asks for a password', async () => {
    window.history.replaceState(
      null,
      '',
      `/admin/account#access_token=${invitee.access_token}&refresh_token=refresh-9&expires_in=3600&token_type=bearer&type=invite`,
    );
    type Listener = (event: string, session: Session | null) => void;
    let listener: Listener = () => {};
    let current: Session | null = null;
    let finishSetSession: () => void = () => {};
    const statuses: string[] = [];
    const auth = {
      onAuthStateChange: (callback: Listener) => {
        listener = callback;
        return { data: { subscription: { unsubscribe() {} } } };
      },
      // auth-js has read storage (nothing) and, like the PKCE client, not taken the fragment.
      // Its INITIAL_SESSION (no session) comes once initialize has resolved, as in auth-js.
      initialize: async () => {
        setTimeout(() => {
          listener('INITIAL_SESSION', null);
          statuses.push(getAuthStatus());
        }, 0);
        return { error: null };
      },
      getSession: async () => ({ data: { session: current }, error: null }),
      setSession: vi.fn(
        (tokens: { access_token: string; refresh_token: string }) =>
          new Promise((resolve) => {
            finishSetSession = () => {
              current = { ...invitee, ...tokens };
              listener('SIGNED_IN', current);
              resolve({ data: { session: current, user: current.user }, error: null });
            };
          }),
      ),
    };
    const prompt = renderHook(() => usePasswordRecovery());
    const ready = startAuth(new QueryClient(), auth as never);
    await vi.waitFor(() => expect(statuses).toHaveLength(1));
    expect(auth.setSession).toHaveBeenCalled();
    expect(statuses).toEqual(['loading']); // INITIAL_SESSION without a session decided nothing
    expect(getAuthStatus()).toBe('loading');
    expect(window.location.hash).toBe(''); // the tokens leave the address bar at once
    expect(window.location.pathname).toBe('/admin/account');
    finishSetSession();
    await ready;
    expect(auth.setSession).toHaveBeenCalledWith({
      access_token: invitee.access_token,
      refresh_token: 'refresh-9',
    });
    expect(getAuthStatus()).toBe('signed_in');
    expect(getCurrentUser()?.email).toBe('new.staff@example.com');
    prompt.rerender();
    expect(prompt.result.current).toBe('invite');
  });
});
