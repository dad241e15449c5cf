import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { Db, Tx } from '../db/client.ts';
import { type FactorRow, factorsOf } from './mfa.repository.ts';

/** GoTrue's Factor JSON (what GET /user lists and the admin API returns). */
export function factorJson(factor: FactorRow) {
  return {
    id: factor.id,
    friendly_name: factor.friendlyName ?? '',
    factor_type: factor.factorType,
    status: factor.status,
    created_at: factor.createdAt.toISOString(),
    updated_at: factor.updatedAt.toISOString(),
    last_challenged_at: factor.lastChallengedAt ? factor.lastChallengedAt.toISOString() : null,
    ...(factor.factorType === 'phone' && factor.phone ? { phone: factor.phone } : {}),
  };
}

export type FactorJson = ReturnType<typeof factorJson>;

export async function factorsJsonOf(db: Db | Tx, userId: string): Promise<FactorJson[]> {
  return (await factorsOf(db, userId)).map(factorJson);
}

/**
 * TOTP secrets are encrypted at rest (AES-256-GCM) under a key derived from the signing
 * key's HMAC secret: a database leak alone yields no secret. Replacing the signing key makes
 * existing TOTP factors unusable (their users unenroll through an admin and enrol again).
 */
function secretKey(hmacKey: Buffer): Buffer {
  return createHmac('sha256', hmacKey).update('mfa:totp-secret').digest();
}

export function encryptSecret(hmacKey: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretKey(hmacKey), iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function decryptSecret(hmacKey: Buffer, stored: string): string {
  const raw = Buffer.from(stored, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', secretKey(hmacKey), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
