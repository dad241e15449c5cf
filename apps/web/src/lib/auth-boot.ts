import type { GoTrueClient } from '@supabase/auth-js';
import { spaRoutes } from '@upnext/contract/routes';
import { markAuthLoading, setAuthSession } from './auth-session.ts';

/** Where auth-js keeps the session in this browser (its PKCE verifier under `<key>-code-verifier`). */
export const AUTH_STORAGE_KEY = 'upnext-auth';

/** The one auth client (`auth-client.ts`, which brings @supabase/auth-js), started on first use. */
function loadAuthClient(): Promise<GoTrueClient> {
  return import('./auth-client.ts').then((module) => module.getAuthClient());
}

function sessionStored(): boolean {
  try {
    return localStorage.getItem(AUTH_STORAGE_KEY) !== null;
  } catch {
    return false; // storage refused (a privacy setting): auth-js then keeps nothing either
  }
}

/**
 * An answer in the URL that auth-js must read on this load: an implicit-flow session or
 * error in the fragment, a PKCE `?code=` or an error in the query. `/join?code=` is a join
 * code, which auth-js leaves alone (`auth-client.ts`).
 */
function authAnswerInUrl(): boolean {
  const { pathname, search, hash } = window.location;
  const fragment = new URLSearchParams(hash.slice(1));
  if (fragment.has('access_token') || fragment.has('error')) return true;
  const query = new URLSearchParams(search);
  if (pathname === spaRoutes.join) return false;
  return ['code', 'error', 'error_code', 'error_description'].some((name) => query.has(name));
}

/**
 * From the app's entry. The auth client starts now only when this load needs it: a session
 * stored by an earlier visit, or a link's answer in the URL; the session store waits in
 * `loading` meanwhile, as before. Anyone else is signed out at once and never downloads
 * auth-js unless they sign in (the sign-in dialog loads it) or sign in in another tab.
 */
export function bootAuth(): void {
  if (sessionStored() || authAnswerInUrl()) {
    markAuthLoading();
    // Without its code the app cannot know the session: signed out rather than loading forever.
    loadAuthClient().catch(() => setAuthSession(null));
    return;
  }
  const signedInElsewhere = (event: StorageEvent) => {
    if (event.key !== AUTH_STORAGE_KEY || event.newValue === null) return;
    window.removeEventListener('storage', signedInElsewhere);
    void loadAuthClient();
  };
  window.addEventListener('storage', signedInElsewhere);
}
