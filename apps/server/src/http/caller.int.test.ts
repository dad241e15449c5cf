import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ephemeralKeys } from '../auth/keys.ts';
import { loadConfig } from '../config.ts';
import { authSessions, authUsers } from '../db/schema/auth.ts';
import { AppError } from '../lib/errors.ts';
import { listen, upgradeStatus, wssUrl } from '../realtime/testing.ts';
import { buildTestApp, type TestApp } from '../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../test/database.ts';
import { createTestUser } from '../test/users.ts';
import { createCallerResolver, parseTimezone } from './caller.ts';

const SECRET = 'a-hosted-project-shared-secret-of-32+chars';

describe('parseTimezone', () => {
  it('keeps IANA zones and drops anything else', () => {
    expect(parseTimezone('Europe/London')).toBe('Europe/London');
    expect(parseTimezone('Not/AZone')).toBeUndefined();
    expect(parseTimezone('')).toBeUndefined();
    expect(parseTimezone(['Europe/London'])).toBeUndefined();
  });
});

describe.each(testDrivers)('the /api caller (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let jwksServer: Server;
  let hostedUrl: string;
  let hostedKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database, { JWT_SECRET: SECRET });
    // A stand-in for a hosted Supabase Auth: only its JWKS endpoint matters here.
    const pair = await generateKeyPair('ES256');
    hostedKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'hosted-1', alg: 'ES256', use: 'sig' };
    jwksServer = createServer((request, response) => {
      if (request.url === '/auth/v1/.well-known/jwks.json') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ keys: [jwk] }));
      } else {
        response.statusCode = 404;
        response.end();
      }
    });
    await new Promise<void>((done) => jwksServer.listen(0, '127.0.0.1', done));
    hostedUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/auth/v1`;
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
    await new Promise((done) => jwksServer?.close(done));
  });

  const resolver = (env: Record<string, string> = {}) =>
    createCallerResolver({
      db: database.db,
      keys: t.keys,
      auth: loadConfig({ NODE_ENV: 'test', JWT_SECRET: SECRET, ...env }).auth,
      clock: () => new Date(),
    });

  async function refusal(promise: Promise<unknown>) {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).code;
  }

  it('is anonymous without a token, with the timezone header when it names a real zone', async () => {
    const resolve = resolver();
    expect(await resolve({ 'x-user-timezone': 'Asia/Colombo' })).toEqual({
      kind: 'anonymous',
      timezone: 'Asia/Colombo',
    });
    expect(await resolve({ 'x-user-timezone': 'Mars/Olympus' })).toEqual({
      kind: 'anonymous',
      timezone: undefined,
    });
  });

  it('knows a signed-in user by their access token, and forgets them once the session ends', async () => {
    const user = await createTestUser(t, { timezone: 'Europe/Paris' });
    const resolve = resolver();
    expect(await resolve(user.headers)).toMatchObject({
      kind: 'user',
      userId: user.userId,
      email: user.email,
      timezone: 'Europe/Paris',
    });
    await database.db.delete(authSessions).where(eq(authSessions.id, user.sessionId));
    expect(await refusal(resolve(user.headers))).toBe('unauthorized');
  });

  it('refuses malformed, foreign-key and expired tokens', async () => {
    const resolve = resolver();
    expect(await refusal(resolve({ authorization: 'Bearer not-a-jwt' }))).toBe('unauthorized');
    expect(await refusal(resolve({ authorization: 'Basic abc' }))).toBe('unauthorized');
    const user = await createTestUser(t);
    const stranger = ephemeralKeys();
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      sub: user.userId,
      session_id: user.sessionId,
      aud: 'authenticated',
      iss: t.config.auth.jwtIssuer,
    };
    const foreign = await stranger.sign({ ...claims, iat: now, exp: now + 60 });
    expect(await refusal(resolve({ authorization: `Bearer ${foreign}` }))).toBe('unauthorized');
    const expired = await t.keys.sign({ ...claims, iat: now - 7200, exp: now - 3600 });
    expect(await refusal(resolve({ authorization: `Bearer ${expired}` }))).toBe('unauthorized');
  });

  it('refuses a token of our key for another audience or from another issuer, on /api and /wss', async () => {
    const user = await createTestUser(t);
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      sub: user.userId,
      session_id: user.sessionId,
      aud: 'authenticated',
      iss: t.config.auth.jwtIssuer,
      iat: now,
      exp: now + 300,
    };
    const good = await t.keys.sign(claims);
    const foreignAud = await t.keys.sign({ ...claims, aud: 'another-app' });
    const foreignIss = await t.keys.sign({ ...claims, iss: 'https://evil.example/auth/v1' });
    const noAud = await t.keys.sign({ ...claims, aud: undefined });
    const resolve = resolver();
    expect(await resolve({ authorization: `Bearer ${good}` })).toMatchObject({
      userId: user.userId,
    });
    for (const token of [foreignAud, foreignIss, noAud]) {
      expect(await refusal(resolve({ authorization: `Bearer ${token}` }))).toBe('unauthorized');
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/user/user-data',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: { code: 'unauthorized' } });
    }
    const base = await listen(t.app);
    expect(await upgradeStatus(wssUrl(base, good))).toBe('open');
    expect(await upgradeStatus(wssUrl(base, foreignAud))).toBe(401);
    expect(await upgradeStatus(wssUrl(base, foreignIss))).toBe(401);
  });

  it('answers 401 in the error envelope before the route runs', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { authorization: 'Bearer not-a-jwt' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it('accepts a hosted project token signed with the shared secret, as a shadow user', async () => {
    const sub = crypto.randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const hostedIssuer = 'https://hosted.example/auth/v1';
    const token = await new SignJWT({ email: 'Hosted@Example.test', aud: 'authenticated' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(hostedIssuer)
      .setSubject(sub)
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(new TextEncoder().encode(SECRET));
    // With only the shared secret, JWT_ISSUER names the hosted project's issuer.
    const stranger = resolver();
    expect(await refusal(stranger({ authorization: `Bearer ${token}` }))).toBe('unauthorized');
    const resolve = resolver({ JWT_ISSUER: hostedIssuer });
    const caller = await resolve({ authorization: `Bearer ${token}` });
    expect(caller).toMatchObject({ kind: 'user', userId: sub, email: 'hosted@example.test' });
    const again = await resolve({ authorization: `Bearer ${token}` });
    expect(again).toMatchObject({ userId: sub });
    const rows = await database.db.select().from(authUsers).where(eq(authUsers.id, sub));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.encryptedPassword).toBeNull();
    expect(rows[0]?.appMetadata).toMatchObject({ provider: 'hosted' });
  });

  it('accepts a hosted project token verified through its JWKS, and only from its issuer', async () => {
    const resolve = resolver({ HOSTED_AUTH_URL: hostedUrl });
    const local = await createTestUser(t);
    const sign = (issuer: string, email: string) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ email, aud: 'authenticated' })
        .setProtectedHeader({ alg: 'ES256', kid: 'hosted-1' })
        .setSubject(crypto.randomUUID())
        .setIssuer(issuer)
        .setIssuedAt(now)
        .setExpirationTime(now + 300)
        .sign(hostedKey);
    };
    // The address is already a local account's: the shadow row is made without it.
    const caller = await resolve({ authorization: `Bearer ${await sign(hostedUrl, local.email)}` });
    expect(caller).toMatchObject({ kind: 'user', email: null });
    expect(caller.kind === 'user' && caller.userId).not.toBe(local.userId);
    const wrongIssuer = await sign('https://evil.example/auth/v1', 'x@example.test');
    expect(await refusal(resolve({ authorization: `Bearer ${wrongIssuer}` }))).toBe('unauthorized');
    // Our own tokens still work beside the hosted ones.
    expect(await resolve(local.headers)).toMatchObject({ userId: local.userId });
  });
});
