import bcrypt from 'bcryptjs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authAuditLog,
  authOneTimeTokens,
  authRefreshTokens,
  authUsers,
} from '../db/schema/auth.ts';
import { testDrivers } from '../test/database.ts';
import { sha256Hex } from './crypto.ts';
import { hashPassword } from './passwords.ts';
import { type AuthServer, startAuthServer, uniqueEmail } from './testing.ts';

const PASSWORD = 'correct horse battery';
const VERSION = { 'x-supabase-api-version': '2024-01-01' };
const JSON_UTF8 = { 'content-type': 'application/json;charset=UTF-8', ...VERSION };

type Json = Record<string, unknown>;

function call(
  server: AuthServer,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  return fetch(`${server.authUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...JSON_UTF8, ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    redirect: 'manual',
  });
}

async function signedUp(server: AuthServer, email = uniqueEmail()) {
  await call(server, '/signup', { body: { email, password: PASSWORD } });
  const { code } = await server.lastMail(email);
  const verified = await call(server, '/verify', { body: { email, token: code, type: 'signup' } });
  expect(verified.status).toBe(200);
  return {
    email,
    session: (await verified.json()) as Json & { access_token: string; refresh_token: string },
  };
}

function fragmentOf(response: Response): URLSearchParams {
  return new URLSearchParams(new URL(response.headers.get('location') as string).hash.slice(1));
}

describe.each(testDrivers)('/auth/v1 over raw HTTP (%s)', (driver) => {
  let server: AuthServer;

  beforeAll(async () => {
    server = await startAuthServer(driver, {
      CORS_ORIGINS: 'https://app.example.com',
      URI_ALLOW_LIST: 'https://app.example.com/**',
      REFRESH_TOKEN_REUSE_INTERVAL: '10',
    });
  });
  afterAll(() => server?.close());

  it('answers errors in the 2024-01-01 shape with the version and error-code headers', async () => {
    const response = await call(server, '/token?grant_type=password', {
      body: { email: uniqueEmail(), password: 'whatever-it-is' },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(response.headers.get('x-sb-error-code')).toBe('invalid_credentials');
    expect(await response.json()).toEqual({
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
  });

  it('answers clients without the version header in the legacy shape', async () => {
    const response = await fetch(`${server.authUrl}/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail(), password: 'whatever-it-is' }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-supabase-api-version')).toBeNull();
    expect(await response.json()).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });
  });

  it('returns sessions bare, uncached, without the version header', async () => {
    const { email } = await signedUp(server);
    const response = await call(server, '/token?grant_type=password', {
      body: { email, password: PASSWORD },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-supabase-api-version')).toBeNull();
    const body = (await response.json()) as Json;
    expect(Object.keys(body).sort()).toEqual(
      ['access_token', 'expires_at', 'expires_in', 'refresh_token', 'token_type', 'user'].sort(),
    );
    expect(JSON.stringify(body)).not.toMatch(/argon2|encrypted_password/);
  });

  it('allows the auth-js headers cross-origin and exposes X-Supabase-Api-Version', async () => {
    const preflight = await fetch(`${server.authUrl}/token?grant_type=password`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'apikey,authorization,content-type,x-client-info,x-supabase-api-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['apikey', 'authorization', 'x-client-info', 'x-supabase-api-version']) {
      expect(allowed).toContain(header);
    }
    const response = await call(server, '/user', {
      headers: { origin: 'https://app.example.com' },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-expose-headers')?.toLowerCase()).toContain(
      'x-supabase-api-version',
    );
  });

  it('accepts JSON with a charset, an empty JSON body, and refuses malformed JSON with bad_json', async () => {
    const { session } = await signedUp(server);
    const logout = await fetch(`${server.authUrl}/logout?scope=local`, {
      method: 'POST',
      headers: { ...JSON_UTF8, authorization: `Bearer ${session.access_token}` },
    });
    expect(logout.status).toBe(204);
    expect(await logout.text()).toBe('');
    const malformed = await fetch(`${server.authUrl}/recover`, {
      method: 'POST',
      headers: JSON_UTF8,
      body: '{"email":',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as Json).code).toBe('bad_json');
  });

  it('keeps its own not-found answer while /api keeps the app envelope', async () => {
    const auth = await call(server, '/no-such-endpoint');
    expect(auth.status).toBe(404);
    expect(await auth.json()).toEqual({ code: 'not_found', message: 'Not Found' });
    const api = await fetch(`${server.baseUrl}/api/no-such-endpoint`);
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: Json }).error.code).toBe('not_found');
  });

  it('answers bearer problems with GoTrue codes', async () => {
    expect(((await (await call(server, '/user')).json()) as Json).code).toBe('no_authorization');
    const bad = await call(server, '/user', { headers: { authorization: 'Bearer not.a.jwt' } });
    expect(bad.status).toBe(403);
    expect(((await bad.json()) as Json).code).toBe('bad_jwt');
    const unsupported = await call(server, '/token?grant_type=magic', { body: {} });
    expect(unsupported.status).toBe(400);
  });

  it('publishes the JWKS cacheable for 10 minutes, plus settings and health', async () => {
    const jwks = await call(server, '/.well-known/jwks.json');
    expect(jwks.headers.get('cache-control')).toBe('public, max-age=600');
    const { keys } = (await jwks.json()) as { keys: Json[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toHaveProperty('d');
    const settings = (await (await call(server, '/settings')).json()) as Json;
    expect(settings).toMatchObject({
      disable_signup: false,
      mailer_autoconfirm: false,
      external: { email: true, anonymous_users: false },
    });
    expect(((await (await call(server, '/health')).json()) as Json).name).toBe('GoTrue');
  });

  it('redirects a bad email link to the site URL with an error fragment', async () => {
    const response = await call(
      server,
      '/verify?token=nope&type=signup&redirect_to=https%3A%2F%2Fevil.com',
    );
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location') as string);
    expect(location.origin).toBe(server.baseUrl);
    expect(Object.fromEntries(fragmentOf(response))).toEqual({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
      sb: '',
    });
  });

  it('sends a confirmed email link to an allowed redirect_to, keeping its query', async () => {
    const email = uniqueEmail('redirect');
    const target = 'https://app.example.com/welcome?sb_flow_id=abc';
    await call(server, `/signup?redirect_to=${encodeURIComponent(target)}`, {
      body: { email, password: PASSWORD },
    });
    const { link } = await server.lastMail(email);
    expect(new URL(link as string).searchParams.get('redirect_to')).toBe(target);
    const response = await fetch(link as string, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect((response.headers.get('location') as string).startsWith(`${target}#access_token=`)).toBe(
      true,
    );
    expect(fragmentOf(response).get('token_type')).toBe('bearer');
  });

  it.each([
    'https://evil.com/steal',
    'https://app.example.com.evil.com/',
    '//evil.com',
    'javascript:alert(document.cookie)',
    'https://app.example.com@evil.com/',
  ])(
    'replaces the disallowed redirect_to %s with the site URL in the email link',
    async (target) => {
      const email = uniqueEmail('evil');
      await call(server, `/signup?redirect_to=${encodeURIComponent(target)}`, {
        body: { email, password: PASSWORD },
      });
      const { link } = await server.lastMail(email);
      expect(new URL(link as string).searchParams.get('redirect_to')).toBe(server.baseUrl);
      const tampered = (link as string).replace(
        /redirect_to=[^&]*/,
        `redirect_to=${encodeURIComponent(target)}`,
      );
      const response = await fetch(tampered, { redirect: 'manual' });
      expect(new URL(response.headers.get('location') as string).origin).toBe(server.baseUrl);
    },
  );

  it('stores refresh tokens only as SHA-256 hashes', async () => {
    const { session } = await signedUp(server);
    const rows = await server.db.select().from(authRefreshTokens);
    expect(rows.some((row) => row.tokenHash === session.refresh_token)).toBe(false);
    expect(rows.some((row) => row.tokenHash === sha256Hex(session.refresh_token))).toBe(true);
  });

  it('serialises concurrent refreshes of one token: all succeed with the same new token', async () => {
    const { session } = await signedUp(server);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        call(server, '/token?grant_type=refresh_token', {
          body: { refresh_token: session.refresh_token },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    const tokens = await Promise.all(
      answers.map(async (answer) => ((await answer.json()) as Json).refresh_token),
    );
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(session.refresh_token);
  });

  it('allows reuse of an older token inside the 10 s window without revoking the session', async () => {
    const { session } = await signedUp(server);
    const refresh = async (token: string) =>
      call(server, '/token?grant_type=refresh_token', { body: { refresh_token: token } });
    const second = (await (await refresh(session.refresh_token)).json()) as Json;
    const third = (await (await refresh(second.refresh_token as string)).json()) as Json;
    const reuse = await refresh(session.refresh_token);
    expect(reuse.status).toBe(200);
    expect((await refresh(third.refresh_token as string)).status).toBe(200);
  });

  it('commits the family revocation and audits it although the reuse request fails', async () => {
    const { session, email } = await signedUp(server);
    const refresh = async (token: string) =>
      call(server, '/token?grant_type=refresh_token', { body: { refresh_token: token } });
    const second = (await (await refresh(session.refresh_token)).json()) as Json;
    await refresh(second.refresh_token as string);
    // Age the presented token beyond the reuse window.
    await server.db
      .update(authRefreshTokens)
      .set({ updatedAt: new Date(Date.now() - 60_000) })
      .where(eq(authRefreshTokens.tokenHash, sha256Hex(session.refresh_token)));
    const reuse = await refresh(session.refresh_token);
    expect(reuse.status).toBe(400);
    expect(((await reuse.json()) as Json).code).toBe('refresh_token_already_used');
    const user = await call(server, '/user', {
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(((await user.json()) as Json).code).toBe('session_not_found');
    const [owner] = await server.db.select().from(authUsers).where(eq(authUsers.email, email));
    const actions = (
      await server.db
        .select()
        .from(authAuditLog)
        .where(eq(authAuditLog.actorId, owner?.id as string))
    ).map((row) => row.action);
    expect(actions).toEqual(
      expect.arrayContaining(['user_signedup', 'login', 'token_refreshed', 'token_revoked']),
    );
  });

  it('verifies imported bcrypt hashes and rehashes them to argon2id on sign-in', async () => {
    const email = uniqueEmail('imported');
    await server.db.insert(authUsers).values({
      email,
      encryptedPassword: bcrypt.hashSync(PASSWORD, 10),
      emailConfirmedAt: new Date(),
      appMetadata: { provider: 'email', providers: ['email'] },
    });
    const response = await call(server, '/token?grant_type=password', {
      body: { email, password: PASSWORD },
    });
    expect(response.status).toBe(200);
    const [user] = await server.db.select().from(authUsers).where(eq(authUsers.email, email));
    expect(user?.encryptedPassword).toMatch(/^\$argon2id\$/);
    expect(
      (await call(server, '/token?grant_type=password', { body: { email, password: PASSWORD } }))
        .status,
    ).toBe(200);
  });

  it('refuses banned users at sign-in and with a bearer token', async () => {
    const { email, session } = await signedUp(server);
    await server.db
      .update(authUsers)
      .set({ bannedUntil: new Date(Date.now() + 3_600_000) })
      .where(eq(authUsers.email, email));
    const signIn = await call(server, '/token?grant_type=password', {
      body: { email, password: PASSWORD },
    });
    expect([signIn.status, ((await signIn.json()) as Json).code]).toEqual([400, 'user_banned']);
    const user = await call(server, '/user', {
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect([user.status, ((await user.json()) as Json).code]).toEqual([403, 'user_banned']);
    const refresh = await call(server, '/token?grant_type=refresh_token', {
      body: { refresh_token: session.refresh_token },
    });
    expect(((await refresh.json()) as Json).code).toBe('user_banned');
  });

  it('limits wrong codes per address and client IP, and expires tokens', async () => {
    const email = uniqueEmail('attempts');
    await call(server, '/signup', { body: { email, password: PASSWORD } });
    const { code } = await server.lastMail(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const attempt = await call(server, '/verify', {
        body: { email, token: wrong, type: 'signup' },
      });
      expect([attempt.status, ((await attempt.json()) as Json).code]).toEqual([403, 'otp_expired']);
    }
    // The sixth try from this address is refused before the code is even compared.
    const limited = await call(server, '/verify', { body: { email, token: code, type: 'signup' } });
    expect([limited.status, ((await limited.json()) as Json).code]).toEqual([
      429,
      'over_request_rate_limit',
    ]);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    const late = uniqueEmail('late');
    await call(server, '/signup', { body: { email: late, password: PASSWORD } });
    const mail = await server.lastMail(late);
    await server.db
      .update(authOneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authOneTimeTokens.relatesTo, late));
    expect(
      (await call(server, '/verify', { body: { email: late, token: mail.code, type: 'signup' } }))
        .status,
    ).toBe(403);
  });

  it('refuses app_metadata from users and passwords over 72 characters', async () => {
    const { session } = await signedUp(server);
    const admin = await call(server, '/user', {
      method: 'PUT',
      body: { app_metadata: { role: 'admin' } },
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect([admin.status, ((await admin.json()) as Json).code]).toEqual([403, 'not_admin']);
    const long = await call(server, '/signup', {
      body: { email: uniqueEmail(), password: 'x'.repeat(73) },
    });
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({
      code: 'validation_failed',
      message: 'Password cannot be longer than 72 characters',
    });
  });

  it('reads the dev mailbox as JSON, newest first, by address', async () => {
    const email = uniqueEmail('mailbox');
    await call(server, '/recover', { body: { email: (await signedUp(server, email)).email } });
    const messages = await server.mailbox(email.toUpperCase());
    expect(messages.map((message) => message.subject)).toEqual([
      'Reset your UpNext password',
      'Confirm your UpNext account',
    ]);
    expect(messages[0]?.text).toContain(`${server.authUrl}/verify?token=`);
    expect(messages[0]?.text).toContain('type=recovery');
  });

  it('writes its emails in the language of the page that asked, else English', async () => {
    const french = uniqueEmail('francais');
    await call(server, '/signup', {
      body: { email: french, password: PASSWORD },
      headers: { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.8' },
    });
    const confirm = await server.lastMail(french);
    expect(confirm.subject).toBe('Confirmez votre compte UpNext');
    expect(confirm.text).toMatch(/Ou saisissez ce code : \d{6}/);
    const arabic = uniqueEmail('arabic');
    await call(server, '/recover', {
      body: { email: (await signedUp(server, arabic)).email },
      headers: { 'accept-language': 'ar' },
    });
    const reset = await server.lastMail(arabic);
    expect(reset.subject).toBe('إعادة تعيين كلمة مرور UpNext');
    expect(reset.html).toContain('<html lang="ar" dir="rtl">');
    // A language we do not speak: English.
    const german = uniqueEmail('deutsch');
    await call(server, '/otp', {
      body: { email: german, create_user: true },
      headers: { 'accept-language': 'de-DE' },
    });
    expect((await server.lastMail(german)).subject).toBe('Confirm your UpNext account');
    // Refusals too: the same code, the reason in the page's language.
    const refused = await call(server, '/token?grant_type=password', {
      body: { email: arabic, password: 'not the password' },
      headers: { 'accept-language': 'fr' },
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      code: 'invalid_credentials',
      message: 'Identifiants de connexion invalides.',
    });
  });

  it('signs in with a password that no longer meets the policy, with a weak_password hint', async () => {
    const email = uniqueEmail('weak');
    await server.db.insert(authUsers).values({
      email,
      encryptedPassword: await hashPassword('short'),
      emailConfirmedAt: new Date(),
      appMetadata: { provider: 'email', providers: ['email'] },
    });
    const { data, error } = await server.client().signInWithPassword({ email, password: 'short' });
    expect(error).toBeNull();
    expect(data.session?.access_token).toEqual(expect.any(String));
    expect(data.weakPassword).toEqual({
      reasons: ['length'],
      message: 'Password should be at least 8 characters.',
    });
  });

  it('writes audit rows for sign-up, sign-in, recovery, password change and logout, with IP and no secrets', async () => {
    const { email, session } = await signedUp(server);
    await call(server, '/recover', { body: { email } });
    const auth = { authorization: `Bearer ${session.access_token}` };
    await call(server, '/user', {
      method: 'PUT',
      body: { password: 'another fine password' },
      headers: auth,
    });
    await call(server, '/logout', { body: {}, headers: auth });
    const [user] = await server.db.select().from(authUsers).where(eq(authUsers.email, email));
    const rows = await server.db
      .select()
      .from(authAuditLog)
      .where(eq(authAuditLog.actorId, user?.id as string));
    expect(rows.map((row) => row.action)).toEqual(
      expect.arrayContaining([
        'user_signedup',
        'login',
        'user_recovery_requested',
        'user_updated_password',
        'logout',
      ]),
    );
    expect(rows.every((row) => row.ip === '127.0.0.1' && row.requestId)).toBe(true);
    const text = JSON.stringify(rows);
    expect(text).not.toContain('another fine password');
    expect(text).not.toContain(session.refresh_token);
  });

  it('checks the token audience on GET /user against X-JWT-AUD or the configured one', async () => {
    const { session } = await signedUp(server);
    const auth = { authorization: `Bearer ${session.access_token}` };
    expect((await call(server, '/user', { headers: auth })).status).toBe(200);
    const other = await call(server, '/user', { headers: { ...auth, 'x-jwt-aud': 'another-app' } });
    expect([other.status, ((await other.json()) as Json).code]).toEqual([403, 'bad_jwt']);
  });

  it('stays out of the /api OpenAPI document', async () => {
    const document = (await (await fetch(`${server.baseUrl}/api/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(document.paths).some((path) => path.startsWith('/auth'))).toBe(false);
    expect(Object.keys(document.paths).length).toBeGreaterThan(0);
  });

  it('answers concurrent sign-ups and code requests for one new address without a 5xx, creating one user', async () => {
    for (let round = 0; round < 4; round++) {
      const email = uniqueEmail('race');
      const answers = await Promise.all([
        call(server, '/signup', { body: { email, password: PASSWORD } }),
        call(server, '/otp', { body: { email } }),
        call(server, '/signup', { body: { email, password: PASSWORD } }),
        call(server, '/otp', { body: { email } }),
        call(server, '/signup', { body: { email, password: PASSWORD } }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      expect(await server.db.$count(authUsers, eq(authUsers.email, email))).toBe(1);
    }
  });
});
