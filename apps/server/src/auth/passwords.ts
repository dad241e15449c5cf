import { hash, verify } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import { errors } from './errors.ts';

// @node-rs/argon2 declares Algorithm as a const enum, which erasable TypeScript cannot import.
const ARGON2ID = 2;

/** argon2id with OWASP's parameters (19 MiB, 2 passes), on libuv's pool: off the event loop. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
}

export type PasswordCheck = { ok: boolean; needsRehash: boolean };

/** Verifies argon2 hashes and bcrypt hashes imported from Supabase ($2a/$2b/$2y). */
export async function checkPassword(password: string, stored: string): Promise<PasswordCheck> {
  if (/^\$2[aby]\$\d{2}\$/.test(stored)) {
    const ok = await bcrypt.compare(password, stored);
    return { ok, needsRehash: ok };
  }
  if (stored.startsWith('$argon2')) {
    try {
      return { ok: await verify(stored, password), needsRehash: !stored.startsWith('$argon2id$') };
    } catch {
      return { ok: false, needsRehash: false };
    }
  }
  return { ok: false, needsRehash: false };
}

let dummyHash: Promise<string> | undefined;

/** Spends the time a real check would, for users that do not exist or have no password. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('dummy password for timing equalisation');
  await checkPassword(password, await dummyHash);
}

const MAX_PASSWORD_LENGTH = 72;

/** GoTrue's rules: 72 characters at most (400), then the policy (422 weak_password). */
export function assertPasswordAcceptable(password: string, minLength: number): void {
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw errors.passwordTooLong(MAX_PASSWORD_LENGTH);
  }
  if (password.length < minLength) {
    throw errors.weakPassword(`Password should be at least ${minLength} characters.`, ['length']);
  }
}
