import { useSyncExternalStore } from 'react';

/**
 * The signed-in session as the rest of the app sees it, fed by the auth client
 * (`auth-client.ts`) from @supabase/auth-js's events. Kept free of auth-js types so the route
 * guard and the API client stay small and easy to test.
 */
export interface CurrentUser {
  id: string;
  email?: string;
  phone?: string;
  displayName?: string;
  avatarUrl?: string;
}

export interface AuthSession {
  accessToken: string;
  user: CurrentUser;
}

/**
 * `loading` until the auth client has read its stored session (or completed a link in the
 * URL), so a reload of a guarded page does not bounce a signed-in user to the home page.
 * `mfa_required`: a first factor succeeded but the user has verified factors and this session
 * is not aal2 yet; the app treats that as signed out until the code is entered.
 */
export type AuthStatus = 'loading' | 'signed_out' | 'mfa_required' | 'signed_in';

interface AuthState {
  status: AuthStatus;
  session: AuthSession | null;
  /** The user chose to sign out: the guard then sends them home without `?redirect=`. */
  signedOutByUser: boolean;
}

type Listener = () => void;

let state: AuthState = { status: 'signed_out', session: null, signedOutByUser: false };
const listeners = new Set<Listener>();
let tokenProvider: (() => Promise<string | null>) | null = null;

function emit(next: AuthState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function getAccessToken(): string | null {
  return state.session?.accessToken ?? null;
}

/**
 * The access token to send now: asks the auth client (which refreshes a token close to expiry,
 * spec §9) when one is connected, else the stored one.
 */
export async function getFreshAccessToken(): Promise<string | null> {
  if (tokenProvider && state.session) {
    try {
      return (await tokenProvider()) ?? null;
    } catch {
      return getAccessToken();
    }
  }
  return getAccessToken();
}

export function setAccessTokenProvider(provider: (() => Promise<string | null>) | null): void {
  tokenProvider = provider;
}

/** The user the app may treat as signed in: null while loading or waiting for the MFA code. */
export function getCurrentUser(): CurrentUser | null {
  return state.status === 'signed_in' ? (state.session?.user ?? null) : null;
}

export function getAuthStatus(): AuthStatus {
  return state.status;
}

/** Replace the session (null signs out) and tell every subscriber. */
export function setAuthSession(session: AuthSession | null, mfaRequired = false): void {
  const status: AuthStatus = !session ? 'signed_out' : mfaRequired ? 'mfa_required' : 'signed_in';
  emit({ status, session, signedOutByUser: session ? false : state.signedOutByUser });
}

/** Call before signing out on purpose (the session then ends without a trip back). */
export function markSignOutByUser(): void {
  state = { ...state, signedOutByUser: true };
}

export function wasSignedOutByUser(): boolean {
  return state.signedOutByUser;
}

/** The auth client is reading its stored session: guarded pages wait instead of redirecting. */
export function markAuthLoading(): void {
  emit({ ...state, status: 'loading' });
}

export function subscribeAuthSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useCurrentUser(): CurrentUser | null {
  return useSyncExternalStore(subscribeAuthSession, getCurrentUser, getCurrentUser);
}

export function useAuthStatus(): AuthStatus {
  return useSyncExternalStore(subscribeAuthSession, getAuthStatus, getAuthStatus);
}
