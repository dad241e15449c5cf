import { GoTrueClient, type Session } from '@supabase/auth-js';
import type { QueryClient } from '@tanstack/react-query';
import { spaRoutes } from '@upnext/contract/routes';
import { useSyncExternalStore } from 'react';
import { AUTH_STORAGE_KEY } from './auth-boot.ts';
import {
  type CurrentUser,
  markAuthLoading,
  setAccessTokenProvider,
  setAuthSession,
} from './auth-session.ts';
import { currentLanguage } from './language.ts';
import { queryClient } from './query-client.ts';
import { safeRedirectPath } from './safe-redirect.ts';

/**
 * The one auth client of the app: the official @supabase/auth-js against our own `/auth/v1`.
 * Session refresh (30 s tick, 3-tick margin, 200 ms doubling backoff), the auth events and the
 * session storage are auth-js's own, so spec §4/§9 hold by construction. PKCE flow: email
 * links and OAuth come back with `?code=`, which auth-js exchanges on page load
 * (`detectSessionInUrl`) using the verifier it stored in this browser. Loaded on demand
 * (`auth-boot.ts`): only pages that sign in, or a browser with a session, download auth-js.
 */
let client: GoTrueClient | null = null;

/**
 * What auth-js may read from the URL on load. `/join?code=` is a queue's join code, not an
 * auth code: after a one-time-code sign-in a PKCE verifier is left in storage, and auth-js
 * would try to exchange the join code (`grant_type=pkce` → 404), so it reads nothing there.
 * Elsewhere it completes PKCE links (`?code=`) and reports errors a link carries back
 * (spec §8); implicit-flow sessions (`#access_token=`, e.g. a staff invite) it would refuse in
 * the PKCE flow, so `takeSessionFromFragment` takes them.
 */
function detectSessionInUrl(
  pathname: string,
): false | ((url: URL, params: Record<string, string>) => boolean) {
  if (pathname === spaRoutes.join) return false;
  return (_url, params) =>
    !params.access_token && Boolean(params.error || params.error_description || params.error_code);
}

export function authUrl(): string {
  return `${window.location.origin}/auth/v1`;
}

/** auth-js's requests, saying the page's language: the server writes its emails in it. */
function fetchInPageLanguage(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  headers.set('Accept-Language', currentLanguage());
  return fetch(input, { ...init, headers });
}

/** A client for the page as loaded now (it reads the URL once, on creation). */
export function createAuthClient(): GoTrueClient {
  return new GoTrueClient({
    url: authUrl(),
    fetch: fetchInPageLanguage,
    storageKey: AUTH_STORAGE_KEY,
    flowType: 'pkce',
    detectSessionInUrl: detectSessionInUrl(window.location.pathname),
    autoRefreshToken: true,
    persistSession: true,
  });
}

/** The client, fed to the app's session store from its creation (`startAuth`). */
export function getAuthClient(): GoTrueClient {
  if (!client) {
    client = createAuthClient();
    void startAuth(queryClient, client);
  }
  return client;
}

/** Reads a JWT's payload without verifying it (the server verifies; this only routes the UI). */
function jwtClaims(token: string): Record<string, unknown> {
  try {
    const part = token.split('.')[1] ?? '';
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const claims: unknown = JSON.parse(json);
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * True when the user has a verified MFA factor but this session is still aal1: the same rule
 * as auth-js's getAuthenticatorAssuranceLevel (nextLevel aal2 > currentLevel).
 */
function sessionNeedsMfa(session: Session): boolean {
  const verified = (session.user.factors ?? []).some((factor) => factor.status === 'verified');
  return verified && jwtClaims(session.access_token).aal !== 'aal2';
}

function toCurrentUser(session: Session): CurrentUser {
  const { user } = session;
  const meta = user.user_metadata ?? {};
  const current: CurrentUser = { id: user.id };
  if (user.email) current.email = user.email;
  if (user.phone) current.phone = user.phone;
  if (typeof meta.display_name === 'string' && meta.display_name) {
    current.displayName = meta.display_name;
  }
  if (typeof meta.avatar_url === 'string' && meta.avatar_url) current.avatarUrl = meta.avatar_url;
  return current;
}

/** Feed the app's session store from one auth-js session (null = signed out). */
export function applySession(session: Session | null): void {
  setAuthSession(
    session ? { accessToken: session.access_token, user: toCurrentUser(session) } : null,
    session ? sessionNeedsMfa(session) : false,
  );
}

/** Why the signed-in user is asked to choose a password: a reset link, or an invitation. */
export type PasswordPrompt = 'recovery' | 'invite';

// PASSWORD_RECOVERY fires once, right after the recovery link's code is exchanged, possibly
// before the page that shows the set-new-password dialog has mounted: keep it until handled.
let passwordPrompt: PasswordPrompt | null = null;
const promptListeners = new Set<() => void>();

function setPasswordPrompt(value: PasswordPrompt | null): void {
  passwordPrompt = value;
  for (const listener of promptListeners) listener();
}

export function clearPasswordRecovery(): void {
  setPasswordPrompt(null);
}

/** Whether (and why) to ask the user for a new password now. */
export function usePasswordRecovery(): PasswordPrompt | null {
  return useSyncExternalStore(
    (listener) => {
      promptListeners.add(listener);
      return () => {
        promptListeners.delete(listener);
      };
    },
    () => passwordPrompt,
    () => passwordPrompt,
  );
}

/** The auth-js calls `startAuth` makes (a fake in tests). */
type AuthLike = Pick<
  GoTrueClient,
  'initialize' | 'getSession' | 'setSession' | 'onAuthStateChange'
>;

/**
 * An implicit-flow link's session in the URL fragment (`#access_token=...&refresh_token=...
 * &type=invite`, what GET /verify answers for invitations): signed in with it, and the tokens
 * are removed from the address. An invitee has no password yet, so is asked for one.
 */
async function takeSessionFromFragment(auth: AuthLike): Promise<void> {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const accessToken = fragment.get('access_token');
  const refreshToken = fragment.get('refresh_token');
  if (!accessToken || !refreshToken) return;
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', pathname + search);
  const { error } = await auth.setSession({
    access_token: accessToken,
    refresh_token: refreshToken,
  });
  const type = fragment.get('type');
  if (!error && (type === 'invite' || type === 'recovery')) setPasswordPrompt(type);
}

let initialized: Promise<{ error: Error | null }> | null = null;

/**
 * Start the client once, when it is created: subscribe to its events, then wait for it to
 * read storage or the URL (a link's code or fragment). Until then the session store stays
 * `loading`, so the route guard decides only on the initial session, not on an early
 * "signed out". The query cache is cleared whenever the user changes or signs out, so no
 * one sees the previous user's data.
 */
export function startAuth(queries: QueryClient, auth: AuthLike): Promise<{ error: Error | null }> {
  if (initialized !== null) return initialized;
  markAuthLoading();
  let userId: string | null = null;
  let settled = false;
  setAccessTokenProvider(async () => {
    const { data } = await auth.getSession();
    return data.session?.access_token ?? null;
  });
  auth.onAuthStateChange((event, session) => {
    const nextUserId = session?.user.id ?? null;
    if (event === 'SIGNED_OUT' || (userId !== null && nextUserId !== userId)) queries.clear();
    userId = nextUserId;
    if (event === 'PASSWORD_RECOVERY') setPasswordPrompt('recovery');
    if (event === 'SIGNED_OUT') setPasswordPrompt(null);
    if (settled) applySession(session);
    if (event === 'USER_UPDATED' || event === 'MFA_CHALLENGE_VERIFIED') {
      void queries.invalidateQueries({ queryKey: ['auth'] });
    }
  });
  initialized = (async () => {
    let result: { error: Error | null } = { error: null };
    try {
      result = await auth.initialize();
      await takeSessionFromFragment(auth);
    } finally {
      settled = true;
      const { data } = await auth.getSession();
      applySession(data.session);
    }
    return { error: result.error };
  })();
  return initialized;
}

/** Resolves with the outcome of reading storage / the URL; `startAuth` must have run. */
export function authReady(): Promise<{ error: Error | null }> {
  return initialized ?? Promise.resolve({ error: null });
}

/** Where email links and OAuth return: `/login`, which completes them and goes on to `redirect`. */
export function loginRedirectUrl(redirect?: string | null): string {
  const path = safeRedirectPath(redirect);
  return `${window.location.origin}/login?redirect=${encodeURIComponent(path)}`;
}

/** The password-reset email returns here (spec §2). */
export function recoveryRedirectUrl(): string {
  return `${window.location.origin}/update-password`;
}

export interface AuthSettings {
  external: Record<string, boolean>;
  /** Display names the server gives providers (ours: `oidc` is EXTERNAL_OIDC_NAME). */
  external_labels?: Record<string, string>;
  disable_signup?: boolean;
  mailer_autoconfirm?: boolean;
  phone_autoconfirm?: boolean;
  /** Passkey sign-in (GoTrue's flag; ours is always on). */
  passkeys_enabled?: boolean;
}

const NOT_PROVIDERS = new Set(['email', 'phone', 'anonymous_users', 'saml', 'web3']);

/** GET /auth/v1/settings (GoTrue's): which sign-in methods are on. */
export async function fetchAuthSettings(): Promise<AuthSettings> {
  const response = await fetch(`${authUrl()}/settings`, {
    headers: { Accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`Auth settings failed with status ${response.status}`);
  return (await response.json()) as AuthSettings;
}

/** The OAuth providers switched on in the settings, in the server's order. */
export function enabledOAuthProviders(settings: AuthSettings | undefined): string[] {
  return Object.entries(settings?.external ?? {})
    .filter(([name, on]) => on && !NOT_PROVIDERS.has(name))
    .map(([name]) => name);
}

const PROVIDER_NAMES: Record<string, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  linkedin_oidc: 'LinkedIn',
  slack_oidc: 'Slack',
  workos: 'WorkOS',
  azure: 'Microsoft',
  keycloak: 'Keycloak',
};

/** The name a provider goes by: the server's label (e.g. EXTERNAL_OIDC_NAME), else a known one. */
export function providerLabel(provider: string, settings?: AuthSettings): string {
  const configured = settings?.external_labels?.[provider];
  if (configured) return configured;
  const name = PROVIDER_NAMES[provider];
  if (name) return name;
  const plain = provider.replace(/^custom:/, '').replace(/[_-]+/g, ' ');
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

/** Whether this browser can run WebAuthn ceremonies (what auth-js checks before one). */
export function browserSupportsWebAuthn(): boolean {
  return (
    typeof window.PublicKeyCredential === 'function' &&
    typeof navigator.credentials?.get === 'function'
  );
}
