import { AuthApiError, AuthSessionMissingError, AuthWeakPasswordError } from '@supabase/auth-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSessions, authUsers } from '../db/schema/auth.ts';
import { testDrivers } from '../test/database.ts';
import { type AuthServer, startAuthServer, uniqueEmail } from './testing.ts';

const PASSWORD = 'correct horse battery';
const VERSION = { 'x-supabase-api-version': '2024-01-01' };

describe.each(testDrivers)('auth-js against /auth/v1 (%s)', (driver) => {
  let server: AuthServer;
  let autoconfirm: AuthServer;

  beforeAll(async () => {
    server = await startAuthServer(driver, { REFRESH_TOKEN_REUSE_INTERVAL: '0' });
    autoconfirm = await startAuthServer(driver, { MAILER_AUTOCONFIRM: 'true' });
  });
  afterAll(async () => {
    await server?.close();
    await autoconfirm?.close();
  });

  /** Signs up and confirms through the code in the dev mailbox; returns a signed-in client. */
  async function confirmedUser(email = uniqueEmail()) {
    const client = server.client();
    const { error } = await client.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    const { code } = await server.lastMail(email);
    const verified = await client.verifyOtp({ email, token: code as string, type: 'signup' });
    expect(verified.error).toBeNull();
    return { client, email, session: verified.data.session };
  }

  it('signs up with autoconfirm: a session at once, SIGNED_IN, and a second sign-up is refused', async () => {
    const client = autoconfirm.client();
    const events: string[] = [];
    client.onAuthStateChange((event) => {
      events.push(event);
    });
    const email = uniqueEmail('auto');
    const { data, error } = await client.signUp({
      email,
      password: PASSWORD,
      options: { data: { display_name: 'Ada' } },
    });
    expect(error).toBeNull();
    expect(data.session?.access_token).toEqual(expect.any(String));
    expect(data.user?.email).toBe(email);
    expect(data.user?.user_metadata).toEqual({ display_name: 'Ada' });
    expect(data.user?.identities).toHaveLength(1);
    expect(data.user?.email_confirmed_at).toEqual(expect.any(String));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events).toContain('SIGNED_IN');

    const again = await autoconfirm
      .client()
      .signUp({ email: email.toUpperCase(), password: PASSWORD });
    expect(again.error).toBeInstanceOf(AuthApiError);
    expect(again.error?.code).toBe('user_already_exists');
    expect(again.error?.status).toBe(422);
  });

  it('signs up without autoconfirm: a bare user, a confirmation mail, no sign-in before confirming', async () => {
    const client = server.client();
    const email = uniqueEmail('new');
    const { data, error } = await client.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.identities).toHaveLength(1);
    expect(data.user?.email_confirmed_at).toBeUndefined();

    const mail = await server.lastMail(email);
    expect(mail.subject).toMatch(/UpNext/);
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.link).toContain('type=signup');
    expect(mail.html).toContain(mail.code);

    const early = await client.signInWithPassword({ email, password: PASSWORD });
    expect(early.error?.code).toBe('email_not_confirmed');
  });

  it('confirms a sign-up with the emailed code, then signs in with the password', async () => {
    const { email, session } = await confirmedUser();
    expect(session?.user.email_confirmed_at).toEqual(expect.any(String));
    const client = server.client();
    const { data, error } = await client.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    expect(data.session?.token_type).toBe('bearer');
    expect(data.session?.expires_in).toBe(3600);
    expect((await client.getUser()).data.user?.email).toBe(email);
  });

  it('confirms a sign-up through the emailed link (GET /verify) into the implicit-flow fragment', async () => {
    const email = uniqueEmail('link');
    await server.client().signUp({ email, password: PASSWORD });
    const { link } = await server.lastMail(email);
    const response = await fetch(link as string, { redirect: 'manual' });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location') as string);
    expect(location.origin).toBe(server.baseUrl);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('signup');
    const client = server.client();
    const set = await client.setSession({
      access_token: fragment.get('access_token') as string,
      refresh_token: fragment.get('refresh_token') as string,
    });
    expect(set.error).toBeNull();
    expect(set.data.user?.email).toBe(email);
    // The link works once.
    const again = await fetch(link as string, { redirect: 'manual' });
    expect(
      new URLSearchParams(new URL(again.headers.get('location') as string).hash.slice(1)).get(
        'error_code',
      ),
    ).toBe('otp_expired');
  });

  it('answers a wrong password and an unknown user alike: invalid_credentials', async () => {
    const { email } = await confirmedUser();
    const wrong = await server.client().signInWithPassword({ email, password: 'not the password' });
    const unknown = await server.client().signInWithPassword({
      email: uniqueEmail('nobody'),
      password: PASSWORD,
    });
    for (const result of [wrong, unknown]) {
      expect(result.error).toBeInstanceOf(AuthApiError);
      expect(result.error?.code).toBe('invalid_credentials');
      expect(result.error?.status).toBe(400);
      expect(result.error?.message).toBe('Invalid login credentials');
    }
  });

  it('refuses a weak password with its reasons', async () => {
    const { error } = await server.client().signUp({ email: uniqueEmail(), password: 'short' });
    expect(error).toBeInstanceOf(AuthWeakPasswordError);
    expect((error as AuthWeakPasswordError).reasons).toEqual(['length']);
  });

  it('rotates refresh tokens: the old one, replayed by a client that lost the answer, yields the current token', async () => {
    const { client } = await confirmedUser();
    const first = (await client.getSession()).data.session;
    const refreshed = await client.refreshSession();
    expect(refreshed.error).toBeNull();
    const second = refreshed.data.session;
    expect(second?.refresh_token).not.toBe(first?.refresh_token);
    // The first token is the parent of the active one: the active one comes back.
    const replay = await server
      .client()
      .refreshSession({ refresh_token: first?.refresh_token as string });
    expect(replay.error).toBeNull();
    expect(replay.data.session?.refresh_token).toBe(second?.refresh_token);
  });

  it('revokes the whole session when an older refresh token is reused', async () => {
    const { client } = await confirmedUser();
    const first = (await client.getSession()).data.session;
    await client.refreshSession();
    const third = (await client.refreshSession()).data.session;
    expect(third).not.toBeNull();
    // `first` is two generations back and the reuse interval is 0: theft.
    const reuse = await server
      .client()
      .refreshSession({ refresh_token: first?.refresh_token as string });
    expect(reuse.error?.code).toBe('refresh_token_already_used');
    expect(reuse.error?.status).toBe(400);
    // The family is gone: the newest refresh token and the access token no longer work.
    const newest = await server
      .client()
      .refreshSession({ refresh_token: third?.refresh_token as string });
    expect(newest.error?.code).toBe('refresh_token_not_found');
    const user = await client.getUser();
    expect(user.error).toBeInstanceOf(AuthSessionMissingError);
  });

  it('signs in by email code (OTP) and by magic link', async () => {
    const { email } = await confirmedUser();
    const client = server.client();
    expect((await client.signInWithOtp({ email })).error).toBeNull();
    const byCode = await server.lastMail(email);
    expect(byCode.subject).toMatch(/sign-in/i);
    const verified = await client.verifyOtp({ email, token: byCode.code as string, type: 'email' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(email);
    const claims = (await client.getClaims()).data?.claims;
    expect(claims?.amr?.[0]).toMatchObject({ method: 'otp' });

    await server.client().signInWithOtp({ email });
    const { link } = await server.lastMail(email);
    const response = await fetch(link as string, { redirect: 'manual' });
    const fragment = new URLSearchParams(
      new URL(response.headers.get('location') as string).hash.slice(1),
    );
    expect(fragment.get('type')).toBe('magiclink');
    expect(fragment.get('access_token')).toEqual(expect.any(String));
  });

  it('creates the user on a first OTP sign-in (create_user defaults to true)', async () => {
    const email = uniqueEmail('otpnew');
    const client = server.client();
    expect((await client.signInWithOtp({ email })).error).toBeNull();
    const { code } = await server.lastMail(email);
    const verified = await client.verifyOtp({ email, token: code as string, type: 'email' });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email_confirmed_at).toEqual(expect.any(String));
  });

  it('recovers a password: code, PASSWORD_RECOVERY, new password, old one refused', async () => {
    const { email } = await confirmedUser();
    const client = server.client();
    const events: string[] = [];
    client.onAuthStateChange((event) => {
      events.push(event);
    });
    expect((await client.resetPasswordForEmail(email)).error).toBeNull();
    const { code, subject } = await server.lastMail(email);
    expect(subject).toMatch(/password/i);
    const verified = await client.verifyOtp({ email, token: code as string, type: 'recovery' });
    expect(verified.error).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events).toContain('PASSWORD_RECOVERY');
    const updated = await client.updateUser({ password: 'a brand new password' });
    expect(updated.error).toBeNull();
    expect(
      (await server.client().signInWithPassword({ email, password: PASSWORD })).error?.code,
    ).toBe('invalid_credentials');
    expect(
      (await server.client().signInWithPassword({ email, password: 'a brand new password' })).error,
    ).toBeNull();
  });

  it('updates the user: metadata merges, the same password is refused, other sessions end on a new password', async () => {
    const { client, email } = await confirmedUser();
    const other = server.client();
    await other.signInWithPassword({ email, password: PASSWORD });

    const meta = await client.updateUser({ data: { display_name: 'Grace', team: 'blue' } });
    expect(meta.data.user?.user_metadata).toEqual({ display_name: 'Grace', team: 'blue' });
    const removed = await client.updateUser({ data: { team: null } });
    expect(removed.data.user?.user_metadata).toEqual({ display_name: 'Grace' });

    const same = await client.updateUser({ password: PASSWORD });
    expect(same.error?.code).toBe('same_password');

    const changed = await client.updateUser({ password: 'another good password' });
    expect(changed.error).toBeNull();
    expect((await client.getUser()).error).toBeNull();
    expect((await other.getUser()).error).toBeInstanceOf(AuthSessionMissingError);
  });

  it.each(['global', 'local', 'others'] as const)(
    'logs out with scope %s, revoking the access tokens of the sessions it ends',
    async (scope) => {
      const { client, email } = await confirmedUser();
      const other = server.client();
      await other.signInWithPassword({ email, password: PASSWORD });
      const mine = (await client.getSession()).data.session?.access_token as string;
      const theirs = (await other.getSession()).data.session?.access_token as string;

      expect((await client.signOut({ scope })).error).toBeNull();

      const probe = async (token: string) =>
        (await fetch(`${server.authUrl}/user`, { headers: { authorization: `Bearer ${token}` } }))
          .status;
      const expected = { global: [403, 403], local: [403, 200], others: [200, 403] }[scope];
      expect([await probe(mine), await probe(theirs)]).toEqual(expected);
      if (expected[0] === 403) {
        const response = await fetch(`${server.authUrl}/user`, {
          headers: { authorization: `Bearer ${mine}`, 'x-supabase-api-version': '2024-01-01' },
        });
        expect(((await response.json()) as { code: string }).code).toBe('session_not_found');
      }
    },
  );

  it('verifies claims locally with the published JWKS (ES256 with kid)', async () => {
    const { client, email } = await confirmedUser();
    const { data, error } = await client.getClaims();
    expect(error).toBeNull();
    expect(data?.header.alg).toBe('ES256');
    expect(data?.header.kid).toEqual(expect.any(String));
    expect(data?.claims).toMatchObject({
      iss: `${server.authUrl}`,
      aud: 'authenticated',
      role: 'authenticated',
      email,
      phone: '',
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
    });
    expect(Object.keys(data?.claims ?? {}).sort()).toEqual(
      [
        'aal',
        'amr',
        'app_metadata',
        'aud',
        'email',
        'exp',
        'iat',
        'is_anonymous',
        'iss',
        'phone',
        'role',
        'session_id',
        'sub',
        'user_metadata',
      ].sort(),
    );
  });

  it('refuses anonymous sign-in unless enabled', async () => {
    const { error } = await server.client().signInAnonymously();
    expect(error?.code).toBe('anonymous_provider_disabled');
    expect(error?.status).toBe(422);
  });

  it('answers wallet sign-in and SAML single sign-on as GoTrue does with them switched off', async () => {
    const rows = async () => ({
      users: await server.db.select().from(authUsers),
      sessions: await server.db.select().from(authSessions),
    });
    const before = await rows();
    const client = server.client();
    const outcome = (error: { status?: number; code?: string; message?: string } | null) => ({
      status: error?.status,
      code: error?.code,
      message: error?.message,
    });
    const web3 = {
      status: 422,
      code: 'web3_provider_disabled',
      message: 'Web3 provider is disabled',
    };
    const message = 'app.example.com wants you to sign in with your account';
    expect(
      outcome(
        (
          await client.signInWithWeb3({
            chain: 'ethereum',
            message,
            signature: `0x${'ab'.repeat(65)}`,
          })
        ).error,
      ),
    ).toEqual(web3);
    expect(
      outcome(
        (await client.signInWithWeb3({ chain: 'solana', message, signature: new Uint8Array(64) }))
          .error,
      ),
    ).toEqual(web3);

    const saml = { status: 404, code: 'saml_provider_disabled', message: 'SAML 2.0 is disabled' };
    expect(outcome((await client.signInWithSSO({ domain: 'example.com' })).error)).toEqual(saml);
    expect(
      outcome((await client.signInWithSSO({ providerId: crypto.randomUUID() })).error),
    ).toEqual(saml);
    // The SAML endpoints an identity provider calls: metadata, and the ACS, which posts a form.
    const metadata = await fetch(`${server.authUrl}/sso/saml/metadata`, { headers: VERSION });
    const acs = await fetch(`${server.authUrl}/sso/saml/acs`, {
      method: 'POST',
      headers: { ...VERSION, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'SAMLResponse=PHNhbWw%2B&RelayState=x',
    });
    for (const response of [metadata, acs]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ code: saml.code, message: saml.message });
    }

    expect((await client.getSession()).data.session).toBeNull();
    expect(await rows()).toEqual(before);
  });
});
