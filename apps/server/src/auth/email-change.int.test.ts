import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../test/database.ts';
import { type AuthServer, startAuthServer, uniqueEmail } from './testing.ts';

const PASSWORD = 'correct horse battery';

describe.each(testDrivers)('email change through PUT /user (%s)', (driver) => {
  let server: AuthServer;
  beforeAll(async () => {
    server = await startAuthServer(driver, { ANONYMOUS_SIGN_INS_ENABLED: 'true' });
  });
  afterAll(() => server?.close());

  async function confirmedUser() {
    const email = uniqueEmail('owner');
    const client = server.client();
    await client.signUp({ email, password: PASSWORD });
    const { code } = await server.lastMail(email);
    expect(
      (await client.verifyOtp({ email, token: code as string, type: 'signup' })).error,
    ).toBeNull();
    return { client, email };
  }

  it('needs confirming from both addresses, then moves the account to the new one', async () => {
    const { client, email } = await confirmedUser();
    const next = uniqueEmail('next');
    const requested = await client.updateUser({ email: next });
    expect(requested.error).toBeNull();
    expect(requested.data.user?.email).toBe(email);
    expect(requested.data.user?.new_email).toBe(next);
    expect(requested.data.user?.email_change_sent_at).toEqual(expect.any(String));

    const toNew = await server.lastMail(next);
    const toCurrent = await server.lastMail(email);
    expect(toNew.subject).toBe('Confirm your new UpNext email address');
    expect(toCurrent.subject).toBe('Confirm the change of your UpNext email address');
    expect(toCurrent.text).toContain(next);

    // The first half answers with a message and no session (auth-js: user and session null).
    const half = await server
      .client()
      .verifyOtp({ email: next, token: toNew.code as string, type: 'email_change' });
    expect(half.error).toBeNull();
    expect(half.data).toEqual({ user: null, session: null });

    const done = await server
      .client()
      .verifyOtp({ email, token: toCurrent.code as string, type: 'email_change' });
    expect(done.error).toBeNull();
    expect(done.data.user?.email).toBe(next);
    expect(done.data.user?.new_email).toBeUndefined();
    expect(done.data.user?.identities?.[0]?.identity_data?.email).toBe(next);

    expect(
      (await server.client().signInWithPassword({ email: next, password: PASSWORD })).error,
    ).toBeNull();
    expect(
      (await server.client().signInWithPassword({ email, password: PASSWORD })).error?.code,
    ).toBe('invalid_credentials');
  });

  it('answers the first emailed link with a message fragment and the second with a session', async () => {
    const { client, email } = await confirmedUser();
    const next = uniqueEmail('next');
    await client.updateUser({ email: next });
    const first = await fetch((await server.lastMail(next)).link as string, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const firstFragment = new URLSearchParams(
      new URL(first.headers.get('location') as string).hash.slice(1),
    );
    expect(firstFragment.get('message')).toMatch(/^Confirmation link accepted/);
    expect(firstFragment.get('access_token')).toBeNull();
    const second = await fetch((await server.lastMail(email)).link as string, {
      redirect: 'manual',
    });
    const secondFragment = new URLSearchParams(
      new URL(second.headers.get('location') as string).hash.slice(1),
    );
    expect(secondFragment.get('type')).toBe('email_change');
    expect(secondFragment.get('access_token')).toEqual(expect.any(String));
  });

  it('refuses an address that belongs to another account', async () => {
    const { client } = await confirmedUser();
    const other = await confirmedUser();
    const { error } = await client.updateUser({ email: other.email.toUpperCase() });
    expect(error?.code).toBe('email_exists');
    expect(error?.status).toBe(422);
  });

  it('turns an anonymous user into an email user with one confirmation', async () => {
    const client = server.client();
    const anonymous = await client.signInAnonymously();
    expect(anonymous.data.user?.is_anonymous).toBe(true);
    const email = uniqueEmail('convert');
    expect((await client.updateUser({ email })).error).toBeNull();
    const { code } = await server.lastMail(email);
    const done = await client.verifyOtp({ email, token: code as string, type: 'email_change' });
    expect(done.error).toBeNull();
    expect(done.data.user).toMatchObject({
      email,
      is_anonymous: false,
      app_metadata: { provider: 'email' },
    });
    expect(done.data.user?.id).toBe(anonymous.data.user?.id);
  });
});
