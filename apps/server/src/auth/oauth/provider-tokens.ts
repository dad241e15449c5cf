import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { AuthKeys } from '../keys.ts';

/**
 * The provider's tokens wait in the PKCE flow state (at most 5 minutes, deleted at the
 * exchange) sealed with AES-256-GCM under a key derived from the signing key, so a database
 * read alone does not yield them.
 */
function key(keys: AuthKeys): Buffer {
  return createHmac('sha256', keys.hmacKey).update('provider-token-seal').digest();
}

export function sealProviderToken(keys: AuthKeys, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(keys), iv);
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The token, or undefined when the value cannot be opened (another key, altered). */
export function openProviderToken(keys: AuthKeys, value: string | null): string | undefined {
  const [version, iv, tag, sealed] = (value ?? '').split('.');
  if (version !== 'v1' || !iv || !tag || sealed === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key(keys), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(sealed, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return undefined;
  }
}
