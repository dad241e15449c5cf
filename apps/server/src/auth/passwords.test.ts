import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { AuthError } from './errors.ts';
import { assertPasswordAcceptable, checkPassword, hashPassword } from './passwords.ts';

describe('passwords', () => {
  it('hashes new passwords with argon2id and verifies them', async () => {
    const hash = await hashPassword('a good password');
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await checkPassword('a good password', hash)).toEqual({ ok: true, needsRehash: false });
    expect((await checkPassword('a bad password', hash)).ok).toBe(false);
  });

  it.each(['$2a$', '$2b$', '$2y$'])(
    'verifies imported bcrypt %s hashes and asks for a rehash',
    async (prefix) => {
      const hash = bcrypt.hashSync('imported password', 10).replace(/^\$2[aby]\$/, prefix);
      expect(await checkPassword('imported password', hash)).toEqual({
        ok: true,
        needsRehash: true,
      });
      expect(await checkPassword('wrong', hash)).toEqual({ ok: false, needsRehash: false });
    },
  );

  it('refuses unknown hash formats', async () => {
    expect((await checkPassword('x', 'plaintext')).ok).toBe(false);
  });

  it('enforces 72 characters at most (400) and the minimum length (422 weak_password)', () => {
    const tooLong = () => assertPasswordAcceptable('x'.repeat(73), 8);
    expect(tooLong).toThrow(AuthError);
    expect(tooLong).toThrow('Password cannot be longer than 72 characters');
    expect(() => assertPasswordAcceptable('x'.repeat(72), 8)).not.toThrow();
    try {
      assertPasswordAcceptable('short', 8);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        status: 422,
        code: 'weak_password',
        extra: { weak_password: { reasons: ['length'] } },
      });
    }
  });
});
