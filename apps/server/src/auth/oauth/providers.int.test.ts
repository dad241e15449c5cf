import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyIdToken } from './providers.ts';

/**
 * verifyIdToken against an issuer made by hand (discovery + JWKS on loopback), so each
 * check can be broken alone: issuer, audience, signature, algorithm, expiry, nonce.
 */
describe('id_token verification', () => {
  let server: Server;
  let issuer: string;
  let privateKey: SigningKey;
  const now = new Date();
  const iat = Math.floor(now.getTime() / 1000);

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/.well-known/openid-configuration') {
        res.end(
          JSON.stringify({
            issuer,
            authorization_endpoint: `${issuer}/auth`,
            token_endpoint: `${issuer}/token`,
            jwks_uri: `${issuer}/jwks`,
          }),
        );
      } else if (req.url === '/jwks') {
        res.end(JSON.stringify({ keys: [jwk] }));
      } else {
        res.statusCode = 404;
        res.end('{}');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const provider = () =>
    ({ kind: 'oidc', name: 'oidc', label: 'SSO', issuer, clientId: 'app', secret: 's' }) as const;
  const sign = (claims: JWTPayload, key: SigningKey | Uint8Array = privateKey, alg = 'ES256') =>
    new SignJWT({ email: 'a@example.com', email_verified: true, ...claims })
      .setProtectedHeader({ alg, kid: 'k1' })
      .setIssuer((claims.iss as string) ?? issuer)
      .setAudience((claims.aud as string) ?? 'app')
      .setSubject('user-1')
      .setIssuedAt(iat)
      .setExpirationTime((claims.exp as number) ?? iat + 300)
      .sign(key);
  const hashed = (nonce: string) => createHash('sha256').update(nonce).digest('hex');

  it('accepts a good token and reads the identity from it', async () => {
    const identity = await verifyIdToken(
      provider(),
      await sign({ nonce: 'n1' }),
      { kind: 'exact', nonce: 'n1' },
      now,
    );
    expect(identity).toMatchObject({
      provider: 'oidc',
      sub: 'user-1',
      email: 'a@example.com',
      emailVerified: true,
    });
    expect(identity.data).not.toHaveProperty('nonce');
  });

  it('refuses another issuer, another audience, an expired token, a foreign key and HS256', async () => {
    const check = (token: string) =>
      verifyIdToken(provider(), token, { kind: 'hashed', nonce: undefined }, now);
    await expect(check(await sign({ iss: 'https://evil.example.com' }))).rejects.toThrow(/iss/);
    await expect(check(await sign({ aud: 'someone-else' }))).rejects.toThrow(/aud/);
    await expect(check(await sign({ exp: iat - 3600 }))).rejects.toThrow(/exp/);
    const stranger = await generateKeyPair('ES256');
    await expect(check(await sign({}, stranger.privateKey))).rejects.toThrow(/signature/);
    await expect(
      check(await sign({}, new TextEncoder().encode('s'.repeat(32)), 'HS256')),
    ).rejects.toThrow(/Bad ID token/);
  });

  it("checks the nonce: exactly for our own flow, as SHA-256 for the app's (GoTrue's rule)", async () => {
    await expect(
      verifyIdToken(provider(), await sign({ nonce: 'n1' }), { kind: 'exact', nonce: 'n2' }, now),
    ).rejects.toThrow(/nonce/);
    const token = await sign({ nonce: hashed('raw') });
    await expect(
      verifyIdToken(provider(), token, { kind: 'hashed', nonce: 'raw' }, now),
    ).resolves.toMatchObject({ sub: 'user-1' });
    await expect(
      verifyIdToken(provider(), token, { kind: 'hashed', nonce: 'other' }, now),
    ).rejects.toThrow(/Nonces mismatch/);
    await expect(
      verifyIdToken(provider(), token, { kind: 'hashed', nonce: undefined }, now),
    ).rejects.toThrow(/both exist/);
    await expect(
      verifyIdToken(provider(), await sign({}), { kind: 'hashed', nonce: 'raw' }, now),
    ).rejects.toThrow(/Nonces mismatch/);
  });

  it('treats an unverified email as unverified', async () => {
    const identity = await verifyIdToken(
      provider(),
      await sign({ email_verified: false }),
      { kind: 'hashed', nonce: undefined },
      now,
    );
    expect(identity.emailVerified).toBe(false);
    expect(identity.email).toBe('a@example.com');
  });
});
