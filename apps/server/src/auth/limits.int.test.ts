import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authSendLog } from '../db/schema/auth.ts';
import { testDrivers } from '../test/database.ts';
import { type AuthServer, startAuthServer, uniqueEmail } from './testing.ts';

const PASSWORD = 'correct horse battery';
const HEADERS = {
  'content-type': 'application/json;charset=UTF-8',
  'x-supabase-api-version': '2024-01-01',
};

type Json = Record<string, unknown>;

async function post(
  server: AuthServer,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const started = performance.now();
  const response = await fetch(`${server.authUrl}${path}`, {
    method: 'POST',
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const json = (await response.json()) as Json;
  const retryAfter = response.headers.get('retry-after');
  return {
    status: response.status,
    json,
    ms: performance.now() - started,
    retryAfter: retryAfter === null ? undefined : Number(retryAfter),
  };
}

async function confirmedUser(server: AuthServer) {
  const email = uniqueEmail('known');
  await post(server, '/signup', { email, password: PASSWORD });
  const [mail] = await server.mailbox(email);
  const code = /code: (\d{6})/.exec(mail?.text ?? '')?.[1];
  expect((await post(server, '/verify', { email, token: code, type: 'signup' })).status).toBe(200);
  return email;
}

describe.each(testDrivers)('auth limits and enumeration resistance (%s)', (driver) => {
  const servers: AuthServer[] = [];
  const start = async (env: Record<string, string>) => {
    const server = await startAuthServer(driver, env);
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('limits requests per client IP with 429 over_request_rate_limit; a spoofed X-Forwarded-For does not help', async () => {
    const server = await start({ RATE_LIMIT_OTP: '3', TRUST_PROXY: 'false' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (
          await post(
            server,
            '/recover',
            { email: uniqueEmail() },
            { 'x-forwarded-for': `203.0.113.${i}` },
          )
        ).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const limited = await post(server, '/signup', { email: uniqueEmail(), password: PASSWORD });
    expect(limited.status).toBe(429);
    // When the 5-minute window ends.
    expect(limited.retryAfter).toBeGreaterThan(0);
    expect(limited.retryAfter).toBeLessThanOrEqual(300);
    expect(limited.json).toEqual({
      code: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    });
  });

  it('counts each client separately behind a trusted proxy', async () => {
    const server = await start({ RATE_LIMIT_TOKEN: '2', TRUST_PROXY: '127.0.0.1' });
    const attempt = (ip: string) =>
      post(
        server,
        '/token?grant_type=password',
        { email: uniqueEmail(), password: PASSWORD },
        { 'x-forwarded-for': ip },
      );
    expect((await attempt('198.51.100.1')).status).toBe(400);
    expect((await attempt('198.51.100.1')).status).toBe(400);
    expect((await attempt('198.51.100.1')).status).toBe(429);
    expect((await attempt('198.51.100.2')).status).toBe(400);
  });

  it('limits failed sign-ins per account and client IP: the guesser is stopped, the owner and other accounts are not', async () => {
    const server = await start({ RATE_LIMIT_SIGNIN_FAILURES: '3', TRUST_PROXY: '127.0.0.1' });
    const victim = await confirmedUser(server);
    const other = await confirmedUser(server);
    const from = (ip: string, email: string, password: string) =>
      post(server, '/token?grant_type=password', { email, password }, { 'x-forwarded-for': ip });
    const guesser = '203.0.113.9';
    for (let i = 0; i < 3; i++) {
      expect((await from(guesser, victim, `guess ${i}`)).json.code).toBe('invalid_credentials');
    }
    // Even the right password from the guesser's address now waits out the window.
    const stopped = await from(guesser, victim.toUpperCase(), PASSWORD);
    expect([stopped.status, stopped.json.code]).toEqual([429, 'over_request_rate_limit']);
    expect(stopped.retryAfter).toBeGreaterThan(0);
    expect(stopped.retryAfter).toBeLessThanOrEqual(15 * 60);
    // The owner elsewhere, and the guesser's neighbours signing in to their own accounts.
    expect((await from('198.51.100.4', victim, PASSWORD)).status).toBe(200);
    expect((await from(guesser, other, PASSWORD)).status).toBe(200);
  });

  it('limits /verify per IP', async () => {
    const server = await start({ RATE_LIMIT_VERIFY: '1' });
    const body = { email: uniqueEmail(), token: '123456', type: 'email' };
    expect((await post(server, '/verify', body)).status).toBe(403);
    expect((await post(server, '/verify', body)).status).toBe(429);
  });

  it('sends to one address at most once a minute, whether or not it has an account', async () => {
    const server = await start({ SMTP_MAX_FREQUENCY: '60' });
    const known = await confirmedUser(server);
    // Its confirmation mail just went out, which counts too: start from a clean slate.
    await server.db.delete(authSendLog);
    const unknown = uniqueEmail('unknown');
    for (const email of [known, unknown]) {
      const first = await post(server, '/recover', { email });
      const second = await post(server, '/recover', { email: email.toUpperCase() });
      expect(first.status).toBe(200);
      expect(second.status).toBe(429);
      expect(second.json.code).toBe('over_email_send_rate_limit');
      expect(second.json.message).toMatch(
        /^For security purposes, you can only request this after \d+ seconds\.$/,
      );
    }
    for (const email of [uniqueEmail('otp')]) {
      expect((await post(server, '/otp', { email })).status).toBe(200);
      expect((await post(server, '/otp', { email })).status).toBe(429);
    }
  });

  it('applies the send interval to repeated sign-ups too, confirmed address or not', async () => {
    const server = await start({ SMTP_MAX_FREQUENCY: '60' });
    const pending = uniqueEmail('pending');
    expect((await post(server, '/signup', { email: pending, password: PASSWORD })).status).toBe(
      200,
    );
    const again = await post(server, '/signup', { email: pending, password: PASSWORD });
    expect([again.status, again.json.code]).toEqual([429, 'over_email_send_rate_limit']);
    const known = await confirmedUser(server);
    const repeat = await post(server, '/signup', { email: known, password: PASSWORD });
    expect([repeat.status, repeat.json.code]).toEqual([429, 'over_email_send_rate_limit']);
    expect(await server.mailbox(pending)).toHaveLength(1);
  });

  it('answers recover and otp the same for known and unknown addresses', async () => {
    const server = await start({});
    const known = await confirmedUser(server);
    const unknown = uniqueEmail('unknown');
    for (const path of ['/recover', '/resend']) {
      const body = (email: string) => (path === '/resend' ? { email, type: 'signup' } : { email });
      const a = await post(server, path, body(known));
      const b = await post(server, path, body(unknown));
      expect([a.status, a.json]).toEqual([200, {}]);
      expect([b.status, b.json]).toEqual([a.status, a.json]);
      expect(Math.max(a.ms, b.ms)).toBeLessThan(1500);
    }
    // create_user:false: GoTrue says otp_disabled only for unknown addresses; we do not.
    const a = await post(server, '/otp', { email: known, create_user: false });
    const b = await post(server, '/otp', { email: unknown, create_user: false });
    expect([a.status, a.json]).toEqual([200, {}]);
    expect([b.status, b.json]).toEqual([200, {}]);
    const [notice] = await server.mailbox(unknown);
    expect(notice?.subject).toBe('Sign-in attempt at UpNext');
    expect(notice?.text).not.toMatch(/\d{6}/);
  });

  it("keeps GoTrue's otp_disabled answer when enumeration protection is switched off", async () => {
    const server = await start({ ENUMERATION_PROTECTION: 'false' });
    const answer = await post(server, '/otp', { email: uniqueEmail(), create_user: false });
    expect(answer.status).toBe(422);
    expect(answer.json).toEqual({ code: 'otp_disabled', message: 'Signups not allowed for otp' });
  });

  it('answers a sign-up for a confirmed address with a fake user of the same shape and time class', async () => {
    const server = await start({});
    const known = await confirmedUser(server);
    const fresh = await post(server, '/signup', {
      email: uniqueEmail('fresh'),
      password: PASSWORD,
    });
    const repeat = await post(server, '/signup', { email: known, password: 'some other password' });
    expect(repeat.status).toBe(fresh.status);
    expect(Object.keys(repeat.json).sort()).toEqual(Object.keys(fresh.json).sort());
    expect(repeat.json.identities).toEqual([]);
    expect(repeat.json.role).toBe('');
    expect(repeat.json.id).not.toBe(fresh.json.id);
    expect(Math.abs(repeat.ms - fresh.ms)).toBeLessThan(400);
    // The owner hears about it; the password was not changed.
    const [notice] = await server.mailbox(known);
    expect(notice?.subject).toBe('You already have an UpNext account');
    const signIn = await post(server, '/token?grant_type=password', {
      email: known,
      password: PASSWORD,
    });
    expect(signIn.status).toBe(200);
  });

  it('re-sends the confirmation to an unconfirmed address without changing the stored user', async () => {
    const server = await start({});
    const email = uniqueEmail('pending');
    const first = await post(server, '/signup', {
      email,
      password: PASSWORD,
      data: { name: 'first' },
    });
    const second = await post(server, '/signup', {
      email,
      password: 'attacker password!',
      data: { name: 'evil' },
    });
    expect(second.status).toBe(200);
    expect(second.json.id).toBe(first.json.id);
    expect(second.json.user_metadata).toEqual({ name: 'first' });
    const mails = await server.mailbox(email);
    expect(mails).toHaveLength(2);
    const code = /code: (\d{6})/.exec(mails[0]?.text ?? '')?.[1];
    expect((await post(server, '/verify', { email, token: code, type: 'signup' })).status).toBe(
      200,
    );
    expect(
      (await post(server, '/token?grant_type=password', { email, password: PASSWORD })).status,
    ).toBe(200);
    expect(
      (await post(server, '/token?grant_type=password', { email, password: 'attacker password!' }))
        .status,
    ).toBe(400);
  });

  it('caps emails per hour for the whole instance', async () => {
    const server = await start({ RATE_LIMIT_EMAIL_SENT: '2' });
    expect((await post(server, '/otp', { email: uniqueEmail() })).status).toBe(200);
    expect((await post(server, '/otp', { email: uniqueEmail() })).status).toBe(200);
    const third = await post(server, '/otp', { email: uniqueEmail() });
    expect([third.status, third.json.code]).toEqual([429, 'over_email_send_rate_limit']);
  });

  it('hides the dev mailbox in production and on a server with a public address', async () => {
    const deployed: Array<Record<string, string>> = [
      { NODE_ENV: 'production' },
      { PUBLIC_URL: 'https://queue.clinic.example' },
    ];
    for (const env of deployed) {
      const server = await start(env);
      const response = await fetch(`${server.authUrl}/dev/mailbox?to=a@example.com`);
      expect(response.status).toBe(404);
    }
  });
});

describe('anonymous sign-in when enabled', () => {
  let server: AuthServer;
  beforeAll(async () => {
    server = await startAuthServer('pglite', { ANONYMOUS_SIGN_INS_ENABLED: 'true' });
  });
  afterAll(() => server?.close());

  it('creates an anonymous user with a session whose amr is anonymous', async () => {
    const { data, error } = await server
      .client()
      .signInAnonymously({ options: { data: { nick: 'guest' } } });
    expect(error).toBeNull();
    expect(data.user?.is_anonymous).toBe(true);
    expect(data.user?.user_metadata).toEqual({ nick: 'guest' });
    const claims = JSON.parse(
      Buffer.from((data.session?.access_token ?? '').split('.')[1] ?? '', 'base64url').toString(),
    );
    expect(claims.is_anonymous).toBe(true);
    expect(claims.amr[0].method).toBe('anonymous');
  });
});

// A row lock on the account shows whether its work (a token written to the user's row) is on
// the response path: with one pooled connection per request, only a PostgreSQL server can
// hold it while the server answers.
describe.skipIf(!testDrivers.includes('postgres'))("the account's part of recover and otp", () => {
  it('runs after the answer: both answer while the account is locked, and send when it is free', async () => {
    const server = await startAuthServer('postgres');
    const locker = new pg.Client({ connectionString: server.database.url });
    try {
      const known = await confirmedUser(server);
      await locker.connect();
      await locker.query('begin');
      await locker.query('select id from auth.users where email = $1 for update', [known]);
      const recover = await post(server, '/recover', { email: known });
      const otp = await post(server, '/otp', { email: known, create_user: false });
      expect([recover.status, recover.json]).toEqual([200, {}]);
      expect([otp.status, otp.json]).toEqual([200, {}]);
      await locker.query('rollback');
      const subjects = (await server.mailbox(known)).map((mail) => mail.subject);
      expect(subjects).toContain('Reset your UpNext password');
      expect(subjects).toContain('Your UpNext sign-in link');
    } finally {
      await locker.end();
      await server.close();
    }
  });
});

/** CI exports TEST_REDIS_URL (.ci/run starts the local Redis when it does not answer). */
const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('auth limits shared by two instances through Redis', () => {
  it('counts one client across both instances', async () => {
    const env = { REDIS_URL: redisUrl ?? '', RATE_LIMIT_OTP: '3', TRUST_PROXY: '127.0.0.1' };
    const one = await startAuthServer('pglite', env);
    const two = await startAuthServer('pglite', env);
    try {
      // An address of its own, so that other runs on the same Redis count elsewhere.
      const client = {
        'x-forwarded-for': `10.${[1, 2, 3].map(() => Math.floor(Math.random() * 250)).join('.')}`,
      };
      const statuses: number[] = [];
      for (const server of [one, two, one, two]) {
        statuses.push((await post(server, '/recover', { email: uniqueEmail() }, client)).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
