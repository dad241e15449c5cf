import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AuthKeys } from '../keys.ts';

/**
 * The `state` sent through the provider: the id of our oauth_states row and an expiry,
 * MACed with a key derived from the signing key, so a forged or altered state is refused
 * before any lookup. The row itself is single use.
 */
export const OAUTH_STATE_TTL_SECONDS = 600;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function mac(keys: AuthKeys, label: string, value: string): string {
  return createHmac('sha256', keys.hmacKey).update(`${label}:${value}`).digest('base64url');
}

export function signState(keys: AuthKeys, id: string, expiresAt: Date): string {
  const payload = `${id}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${payload}.${mac(keys, 'oauth-state', payload)}`;
}

export type StateCheck = { ok: true; id: string } | { ok: false; reason: 'invalid' | 'expired' };

export function verifyState(keys: AuthKeys, state: string | undefined, now: Date): StateCheck {
  const parts = (state ?? '').split('.');
  if (parts.length !== 3) return { ok: false, reason: 'invalid' };
  const [id, exp, signature] = parts as [string, string, string];
  if (!UUID.test(id) || !/^\d{1,12}$/.test(exp)) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(mac(keys, 'oauth-state', `${id}.${exp}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: 'invalid' };
  }
  if (Number(exp) * 1000 < now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, id };
}

/** The nonce for the provider's id_token: derived, so it needs no storage. */
export function nonceFor(keys: AuthKeys, id: string): string {
  return mac(keys, 'oauth-nonce', id);
}

/** Our PKCE verifier towards the provider (43 URL-safe characters), derived likewise. */
export function providerVerifierFor(keys: AuthKeys, id: string): string {
  return mac(keys, 'oauth-pkce', id);
}
