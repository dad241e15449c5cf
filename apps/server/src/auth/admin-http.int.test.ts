import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authUsers } from '../db/schema/auth.ts';
import { testDrivers } from '../test/database.ts';
import { apiKey } from './admin.ts';
import { ephemeralKeys } from './keys.ts';
import { type AuthServer, startAuthServer, uniqueEmail } from './testing.ts';

const ORIGIN = 'https://app.example.com';
const VERSION = { 'x-supabase-api-version': '2024-01-01' };

type Body = {
  code?: string;
  message?: string;
  users?: unknown[];
  aud?: string;
  role?: string;
  id?: string;
  app_metadata?: { roles?: string[] };
  totp?: { qr_code: string };
};
const read = async (response: Response) => (await response.json()) as Body;

describe.each(testDrivers)('admin API over raw HTTP (%s)', (driver) => {
  let server: AuthServer;

  beforeAll(async () => {
    server = await startAuthServer(driver, {
      CORS_ORIGINS: ORIGIN,
      MAILER_AUTOCONFIRM: 'true',
      RATE_LIMIT_MFA: '3',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const call = (path: string, init: RequestInit & { token?: string } = {}) =>
    fetch(`${server.authUrl}${path}`, {
      ...init,
      headers: {
        ...VERSION,
        ...(init.body ? { 'content-type': 'application/json;charset=UTF-8' } : {}),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.headers as Record<string, string> | undefined),
      },
    });

  it('answers 403 not_admin to users, the anon key and foreign keys; 401 without a token', async () => {
    const { data } = await server
      .client()
      .signUp({ email: uniqueEmail('plain'), password: 'correct horse battery' });
    const userToken = data.session?.access_token as string;
    const foreign = await apiKey(ephemeralKeys(), server.config.auth, 'service_role');
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/admin/users'],
      ['POST', '/admin/users', { email: uniqueEmail() }],
      ['GET', `/admin/users/${data.user?.id}`],
      ['PUT', `/admin/users/${data.user?.id}`, { role: 'service_role' }],
      ['DELETE', `/admin/users/${data.user?.id}`, {}],
      ['GET', `/admin/users/${data.user?.id}/factors`],
      ['POST', '/invite', { email: uniqueEmail() }],
      ['POST', '/admin/generate_link', { type: 'magiclink', email: uniqueEmail() }],
    ];
    for (const [method, path, body] of routes) {
      const init = { method, ...(body ? { body: JSON.stringify(body) } : {}) };
      for (const token of [userToken, server.anonKey]) {
        const response = await call(path, { ...init, token });
        expect(response.status, `${method} ${path}`).toBe(403);
        expect(await read(response)).toEqual({ code: 'not_admin', message: 'User not allowed' });
        expect(response.headers.get('x-sb-error-code')).toBe('not_admin');
      }
      const bad = await call(path, { ...init, token: foreign });
      expect(bad.status).toBe(403);
      expect((await read(bad)).code).toBe('bad_jwt');
      const none = await call(path, init);
      expect(none.status).toBe(401);
      expect((await read(none)).code).toBe('no_authorization');
    }
    // Nothing changed: the user is still there with their role.
    const still = await call(`/admin/users/${data.user?.id}`, { token: server.serviceRoleKey });
    expect(still.status).toBe(200);
    expect((await read(still)).role).toBe('authenticated');
  });

  it('sends X-Total-Count and Link, exposed to the browser through CORS', async () => {
    for (let i = 0; i < 3; i++) {
      await call('/admin/users', {
        method: 'POST',
        token: server.serviceRoleKey,
        body: JSON.stringify({ email: uniqueEmail('page') }),
      });
    }
    const response = await call('/admin/users?page=1&per_page=1', {
      token: server.serviceRoleKey,
      headers: { origin: ORIGIN },
    });
    expect(response.status).toBe(200);
    const total = Number(response.headers.get('x-total-count'));
    expect(total).toBeGreaterThanOrEqual(3);
    const link = response.headers.get('link') as string;
    expect(link).toBe(
      `<${server.authUrl}/admin/users?page=2&per_page=1>; rel="next", <${server.authUrl}/admin/users?page=${total}&per_page=1>; rel="last"`,
    );
    const exposed = (response.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    expect(exposed).toContain('x-total-count');
    expect(exposed).toContain('link');
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const body = await read(response);
    expect(body.users).toHaveLength(1);
    expect(body.aud).toBe('authenticated');
    expect(JSON.stringify(body)).not.toMatch(/encrypted_password|\$argon2/);

    const badPage = await call('/admin/users?page=0', { token: server.serviceRoleKey });
    expect(badPage.status).toBe(400);
    expect(await read(badPage)).toEqual({
      code: 'validation_failed',
      message: 'Bad Pagination Parameters: page must be greater than 0',
    });
    const tooMany = await call('/admin/users?per_page=1001', { token: server.serviceRoleKey });
    expect(tooMany.status).toBe(400);
    expect(await read(tooMany)).toEqual({
      code: 'validation_failed',
      message: 'Bad Pagination Parameters: per_page must not exceed 1000',
    });
  });

  it('lists newest first unless sort=created_at asc, keeping filter and sort in the Link', async () => {
    const tag = `sorted${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (let day = 1; day <= 3; day++) {
      const created = await call('/admin/users', {
        method: 'POST',
        token: server.serviceRoleKey,
        body: JSON.stringify({ email: uniqueEmail(tag) }),
      });
      const id = (await read(created)).id as string;
      // Creation times a day apart, so the order cannot hang on a millisecond.
      await server.db
        .update(authUsers)
        .set({ createdAt: new Date(`2020-01-0${day}T00:00:00Z`) })
        .where(eq(authUsers.id, id));
      ids.push(id);
    }
    const [oldest, middle, newest] = ids;
    const list = async (query: string) => {
      const response = await call(`/admin/users?filter=${tag}${query}`, {
        token: server.serviceRoleKey,
      });
      expect(response.status).toBe(200);
      const users = (await read(response)).users as Array<{ id: string }>;
      return { ids: users.map((user) => user.id), link: response.headers.get('link') };
    };
    expect((await list('')).ids).toEqual([newest, middle, oldest]);
    expect((await list('&sort=created_at')).ids).toEqual([newest, middle, oldest]);
    expect((await list('&sort=created_at%20desc')).ids).toEqual([newest, middle, oldest]);
    expect((await list('&sort=created_at+ASC')).ids).toEqual([oldest, middle, newest]);

    const paged = await list('&sort=created_at%20asc&per_page=2');
    expect(paged.ids).toEqual([oldest, middle]);
    const page = (n: number) =>
      `<${server.authUrl}/admin/users?page=${n}&per_page=2&filter=${tag}&sort=created_at+asc>`;
    expect(paged.link).toBe(`${page(2)}; rel="next", ${page(2)}; rel="last"`);
    expect((await list('&sort=created_at%20asc&per_page=2&page=2')).ids).toEqual([newest]);

    // No match: a count of 0 and, as GoTrue, page 1 as the last.
    const none = await call('/admin/users?filter=no-such-user-anywhere', {
      token: server.serviceRoleKey,
    });
    expect(none.headers.get('x-total-count')).toBe('0');
    expect(none.headers.get('link')).toBe(
      `<${server.authUrl}/admin/users?page=1&per_page=50&filter=no-such-user-anywhere>; rel="last"`,
    );

    for (const [sort, message] of [
      ['email', "Bad Sort Parameters: bad field for sort 'email'"],
      ['', "Bad Sort Parameters: bad field for sort ''"],
      [
        'created_at%20up',
        "Bad Sort Parameters: bad direction for sort 'up', only 'asc' and 'desc' allowed",
      ],
    ]) {
      const refused = await call(`/admin/users?sort=${sort}`, { token: server.serviceRoleKey });
      expect(refused.status, sort).toBe(400);
      expect(await read(refused)).toEqual({ code: 'validation_failed', message });
    }
  });

  it('answers 404 user_not_found for unknown and malformed ids, and validates bodies', async () => {
    for (const id of [crypto.randomUUID(), 'not-a-uuid']) {
      const response = await call(`/admin/users/${id}`, { token: server.serviceRoleKey });
      expect(response.status).toBe(404);
      expect((await read(response)).code).toBe('user_not_found');
    }
    const empty = await call('/admin/users', {
      method: 'POST',
      token: server.serviceRoleKey,
      body: JSON.stringify({}),
    });
    expect(empty.status).toBe(400);
    const badType = await call('/admin/generate_link', {
      method: 'POST',
      token: server.serviceRoleKey,
      body: JSON.stringify({ type: 'nope', email: uniqueEmail() }),
    });
    expect(badType.status).toBe(400);
    expect((await read(badType)).code).toBe('validation_failed');
  });

  it('refuses app_metadata from users but lets the service role set it', async () => {
    const { data } = await server
      .client()
      .signUp({ email: uniqueEmail('meta'), password: 'correct horse battery' });
    const own = await call('/user', {
      method: 'PUT',
      token: data.session?.access_token as string,
      body: JSON.stringify({ app_metadata: { roles: ['admin'] } }),
    });
    expect(own.status).toBe(403);
    expect((await read(own)).code).toBe('not_admin');
    const byAdmin = await call(`/admin/users/${data.user?.id}`, {
      method: 'PUT',
      token: server.serviceRoleKey,
      body: JSON.stringify({ app_metadata: { roles: ['staff'] } }),
    });
    expect(byAdmin.status).toBe(200);
    expect((await read(byAdmin)).app_metadata?.roles).toEqual(['staff']);
  });

  it('limits MFA challenges and verifications per IP (RATE_LIMIT_MFA)', async () => {
    const { data } = await server
      .client()
      .signUp({ email: uniqueEmail('mfa-limit'), password: 'correct horse battery' });
    const token = data.session?.access_token as string;
    const enrolled = await call('/factors', {
      method: 'POST',
      token,
      body: JSON.stringify({ factor_type: 'totp' }),
    });
    expect(enrolled.status).toBe(200);
    const enrolment = await read(enrolled);
    // Raw SVG, as GoTrue sends it (auth-js adds the data: prefix).
    expect(enrolment.totp?.qr_code).toMatch(/^<svg/);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await call(`/factors/${enrolment.id}/challenge`, {
        method: 'POST',
        token,
        body: JSON.stringify({ factorId: enrolment.id }),
      });
      statuses.push(response.status);
      if (response.status === 429) {
        expect((await read(response)).code).toBe('over_request_rate_limit');
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
