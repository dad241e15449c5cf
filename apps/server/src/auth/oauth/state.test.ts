import { describe, expect, it } from 'vitest';
import { ephemeralKeys } from '../keys.ts';
import { nonceFor, providerVerifierFor, signState, verifyState } from './state.ts';

const keys = ephemeralKeys(undefined);
const ID = '0b6f1c2e-8a39-4d7e-9f51-2c1a3b4d5e6f';
const NOW = new Date('2026-11-23T12:00:00Z');
const LATER = new Date(NOW.getTime() + 600_000);

describe('OAuth state', () => {
  it('round-trips the row id until it expires', () => {
    const state = signState(keys, ID, LATER);
    expect(verifyState(keys, state, NOW)).toEqual({ ok: true, id: ID });
    expect(verifyState(keys, state, new Date(LATER.getTime() + 1000))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('refuses any change to the id, the expiry or the MAC, and another key', () => {
    const state = signState(keys, ID, LATER);
    const [id, exp, mac] = state.split('.') as [string, string, string];
    const other = '1b6f1c2e-8a39-4d7e-9f51-2c1a3b4d5e6f';
    for (const forged of [
      `${other}.${exp}.${mac}`,
      `${id}.${Number(exp) + 1}.${mac}`,
      `${id}.${exp}.${mac.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
      `${id}.${exp}`,
      `${id}.${exp}.${mac}.x`,
      signState(ephemeralKeys(undefined), ID, LATER),
      '',
    ]) {
      expect(verifyState(keys, forged, NOW)).toEqual({ ok: false, reason: 'invalid' });
    }
    expect(verifyState(keys, undefined, NOW).ok).toBe(false);
  });

  it('derives a distinct nonce and a valid PKCE verifier per state', () => {
    expect(nonceFor(keys, ID)).not.toBe(nonceFor(keys, '1b6f1c2e-8a39-4d7e-9f51-2c1a3b4d5e6f'));
    expect(providerVerifierFor(keys, ID)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(providerVerifierFor(keys, ID)).not.toBe(nonceFor(keys, ID));
  });
});
