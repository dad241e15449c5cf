import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthKeyError, ephemeralKeys, loadAuthKeys } from './keys.ts';

const SECRET = 'a-shared-secret-of-at-least-32-characters!';
const now = () => Math.floor(Date.now() / 1000);

describe('auth signing keys', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'upnext-keys-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('generates an ES256 key on first start in DATA_DIR/auth-keys (0600) and reuses it after', async () => {
    const first = await loadAuthKeys({ jwtPrivateKey: undefined, jwtSecret: undefined }, dir);
    const file = join(dir, 'auth-keys', 'signing-key.pem');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toContain('BEGIN PRIVATE KEY');
    const second = await loadAuthKeys({ jwtPrivateKey: undefined, jwtSecret: undefined }, dir);
    expect(second.kid).toBe(first.kid);
    expect(second.alg).toBe('ES256');
    const token = await first.sign({ sub: 'x', exp: now() + 60 });
    expect((await second.verify(token)).sub).toBe('x');
    expect(second.hmacKey.equals(first.hmacKey)).toBe(true);
  });

  it('publishes only the public half, with kid, alg and key_ops verify', () => {
    const keys = ephemeralKeys(SECRET);
    const { keys: published } = keys.jwks();
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      alg: 'ES256',
      kid: keys.kid,
      use: 'sig',
      key_ops: ['verify'],
    });
    expect(published[0]).not.toHaveProperty('d');
    expect(JSON.stringify(published)).not.toContain(SECRET);
  });

  it('takes JWT_PRIVATE_KEY as PEM or JWK, so instances share one key', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'my-key-1' };
    const fromPem = await loadAuthKeys({ jwtPrivateKey: pem, jwtSecret: undefined }, dir);
    const fromJwk = await loadAuthKeys(
      { jwtPrivateKey: JSON.stringify(jwk), jwtSecret: undefined },
      dir,
    );
    expect(fromJwk.kid).toBe('my-key-1');
    const token = await fromPem.sign({ sub: 'y', exp: now() + 60 });
    // Same key, other kid: the kid is what selects the key.
    await expect(fromJwk.verify(token)).rejects.toThrow(/kid/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const rsaKeys = await loadAuthKeys(
      {
        jwtPrivateKey: rsa.export({ format: 'pem', type: 'pkcs8' }).toString(),
        jwtSecret: undefined,
      },
      dir,
    );
    expect(rsaKeys.alg).toBe('RS256');
    expect((await rsaKeys.verify(await rsaKeys.sign({ sub: 'z', exp: now() + 60 }))).sub).toBe('z');
  });

  it('pins algorithms: refuses alg none, HS256 under our kid, unknown kids, expired and tampered tokens', async () => {
    const keys = ephemeralKeys();
    const unsigned = new UnsecuredJWT({ sub: 'a', exp: now() + 60 }).encode();
    await expect(keys.verify(unsigned)).rejects.toBeInstanceOf(AuthKeyError);
    const hsWithKid = await new SignJWT({ sub: 'a', exp: now() + 60 })
      .setProtectedHeader({ alg: 'HS256', kid: keys.kid })
      .sign(new TextEncoder().encode(SECRET));
    await expect(keys.verify(hsWithKid)).rejects.toThrow(/signature/);
    const other = ephemeralKeys();
    await expect(keys.verify(await other.sign({ sub: 'a', exp: now() + 60 }))).rejects.toThrow(
      /kid/,
    );
    await expect(keys.verify(await keys.sign({ sub: 'a', exp: now() - 60 }))).rejects.toThrow(
      /expired/,
    );
    const good = await keys.sign({ sub: 'a', exp: now() + 60 });
    const [header, , signature] = good.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ sub: 'b', exp: now() + 60 })).toString('base64url')}.${signature}`;
    await expect(keys.verify(forged)).rejects.toThrow(/signature/);
  });

  it('remembers a verified token only as itself and only until it expires', async () => {
    const keys = ephemeralKeys();
    const good = await keys.sign({ sub: 'a', exp: now() + 60 });
    expect((await keys.verify(good)).sub).toBe('a');
    const [header, , signature] = good.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ sub: 'b', exp: now() + 60 })).toString('base64url')}.${signature}`;
    await expect(keys.verify(forged)).rejects.toThrow(/signature/);
    expect((await keys.verify(good)).sub).toBe('a');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 66_000 });
    try {
      await expect(keys.verify(good)).rejects.toThrow(/expired/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('accepts HS256 tokens without kid only when JWT_SECRET is configured', async () => {
    const hs = await new SignJWT({ sub: 'hosted', exp: now() + 60 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(SECRET));
    expect((await ephemeralKeys(SECRET).verify(hs)).sub).toBe('hosted');
    await expect(ephemeralKeys().verify(hs)).rejects.toBeInstanceOf(AuthKeyError);
    const wrongSecret = await new SignJWT({ sub: 'hosted', exp: now() + 60 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(`${SECRET}-other`));
    await expect(ephemeralKeys(SECRET).verify(wrongSecret)).rejects.toBeInstanceOf(AuthKeyError);
  });
});
