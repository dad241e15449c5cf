import { useSyncExternalStore } from 'react';

/**
 * The signed-in session as the rest of the app sees it. The auth client (@supabase/auth-js)
 * will feed this store from its auth events; until then every visit starts signed out.
 */
export interface CurrentUser {
  id: string;
  email?: string;
}

export interface AuthSession {
  accessToken: string;
  user: CurrentUser;
}

type Listener = () => void;

let current: AuthSession | null = null;
const listeners = new Set<Listener>();

export function getAccessToken(): string | null {
  return current?.accessToken ?? null;
}

export function getCurrentUser(): CurrentUser | null {
  return current?.user ?? null;
}

/** Replace the session (null signs out) and tell every subscriber. */
export function setAuthSession(session: AuthSession | null): void {
  current = session;
  for (const listener of listeners) listener();
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
