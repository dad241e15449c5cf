import { getAuthClient } from '../../lib/auth-client.ts';

/**
 * The WebAuthn ceremonies the sign-in dialog offers, imported when used (`import()`), so
 * public pages do not load them up front. All of them are auth-js's own.
 */

/** A passkey sign-in (the browser's passkey picker); the session is auth-js's as usual. */
export function signInWithPasskey() {
  return getAuthClient().signInWithPasskey();
}

/** The second factor with a security key (challenge, the browser's prompt, verify). */
export function verifySecurityKey(factorId: string) {
  return getAuthClient().mfa.webauthn.authenticate({ factorId });
}
