import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authUsers } from '../db/schema/auth.ts';
import { buildTestApp, type TestApp } from '../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../test/database.ts';
import { createTestUser, type TestUser } from '../test/users.ts';
import { apiKey } from './admin.ts';
import { METADATA_MAX_BYTES } from './body.ts';

/** Each of these was a 500, or a token grown past any header limit, before issue 14. */
describe.each(testDrivers)('auth input bounds (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let user: TestUser;
  let admin: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database);
    user = await createTestUser(t);
    const key = await apiKey(t.keys, t.config.auth, 'service_role');
    admin = { authorization: `Bearer ${key}`, apikey: key };
  });
  afterAll(async () => {
    await t.app.close();
    await database.close();
  });

  const send = (method: 'GET' | 'POST' | 'PUT', url: string, body?: object, headers = {}) =>
    t.app.inject({
      method,
      url: `/auth/v1${url}`,
      headers,
      ...(body ? { payload: body } : {}),
    });
  const refused = (response: Awaited<ReturnType<typeof send>>) => ({
    status: response.statusCode,
    code: response.json().error_code,
  });

  it('refuses NUL and other control characters in fields, anonymous callers included', async () => {
    const password = await send('POST', '/token?grant_type=password', {
      email: 'a\u0000@example.test',
      password: 'whatever',
    });
    expect(refused(password)).toEqual({ status: 400, code: 'validation_failed' });
    const otp = await send('POST', '/otp', { email: 'bell\u0007@example.test' });
    expect(refused(otp)).toEqual({ status: 400, code: 'validation_failed' });
  });

  it('refuses NUL in query parameters', async () => {
    const mailbox = await send('GET', '/dev/mailbox?to=a%00b');
    expect(refused(mailbox)).toEqual({ status: 400, code: 'validation_failed' });
    const users = await send('GET', '/admin/users?filter=a%00b', undefined, admin);
    expect(refused(users)).toEqual({ status: 400, code: 'validation_failed' });
  });

  it('bounds a page number so its offset fits the database', async () => {
    const users = await send('GET', `/admin/users?page=${2 ** 53}`, undefined, admin);
    expect(refused(users)).toEqual({ status: 400, code: 'validation_failed' });
  });

  it('refuses an MFA factor name of a megabyte', async () => {
    const factor = await send(
      'POST',
      '/factors',
      { factor_type: 'totp', friendly_name: 'x'.repeat(1_000_000) },
      user.headers,
    );
    expect(factor.statusCode).toBeGreaterThanOrEqual(400);
    expect(factor.statusCode).toBeLessThan(500);
    const long = await send(
      'POST',
      '/factors',
      { factor_type: 'totp', friendly_name: 'x'.repeat(256) },
      user.headers,
    );
    expect(refused(long)).toEqual({ status: 400, code: 'validation_failed' });
  });

  it('refuses sign-up data nested 5,000 deep, or larger than the metadata bound', async () => {
    // Written out: JSON.stringify itself runs out of stack at this depth.
    const deep = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/signup',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":"deep@example.test","password":"correct horse battery","data":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
    });
    expect(refused(deep)).toEqual({ status: 400, code: 'validation_failed' });
    const large = await send('POST', '/signup', {
      email: 'large@example.test',
      password: 'correct horse battery',
      data: { bio: 'x'.repeat(900_000) },
    });
    expect(refused(large)).toEqual({ status: 400, code: 'validation_failed' });
  });

  it('keeps user metadata within the bound as patches merge into it', async () => {
    const half = 'x'.repeat(METADATA_MAX_BYTES / 2);
    const first = await send('PUT', '/user', { data: { a: half } }, user.headers);
    expect(first.statusCode).toBe(200);
    const second = await send('PUT', '/user', { data: { b: half } }, user.headers);
    expect(refused(second)).toEqual({ status: 400, code: 'validation_failed' });
    const [row] = await database.db
      .select({ metadata: authUsers.userMetadata })
      .from(authUsers)
      .where(eq(authUsers.id, user.userId));
    expect(row?.metadata).toEqual({ a: half });
    // An admin's change is held to the same bound.
    const byAdmin = await send(
      'PUT',
      `/admin/users/${user.userId}`,
      { app_metadata: { roles: half, more: half } },
      admin,
    );
    expect(refused(byAdmin)).toEqual({ status: 400, code: 'validation_failed' });
  });
});
