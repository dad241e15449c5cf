import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOneTimeTokens, authSessions, authUsers } from '../db/schema/auth.ts';
import { testDrivers } from '../test/database.ts';
import { type AuthServer, startAuthServer, uniqueEmail, uniquePhone } from './testing.ts';

const PASSWORD = 'correct horse battery';

describe.each(testDrivers)('reauthentication before a password change (%s)', (driver) => {
  let server: AuthServer;
  beforeAll(async () => {
    server = await startAuthServer(driver, { ANONYMOUS_SIGN_INS_ENABLED: 'true' });
  });
  afterAll(() => server?.close());

  async function signedIn() {
    const email = uniqueEmail('reauth');
    const client = server.client();
    await client.signUp({ email, password: PASSWORD });
    const { code } = await server.lastMail(email);
    const { data } = await client.verifyOtp({ email, token: code as string, type: 'signup' });
    return {
      client,
      email,
      sessionId: JSON.parse(
        Buffer.from((data.session?.access_token ?? '').split('.')[1] ?? '', 'base64url').toString(),
      ).session_id as string,
    };
  }

  it('lets a session younger than 24 hours change the password without a nonce', async () => {
    const { client } = await signedIn();
    expect((await client.updateUser({ password: 'a fresh password' })).error).toBeNull();
  });

  it('asks an older session for the emailed nonce, refuses a wrong one, accepts the right one once', async () => {
    const { client, email, sessionId } = await signedIn();
    await server.db
      .update(authSessions)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(authSessions.id, sessionId));

    const without = await client.updateUser({ password: 'new password one' });
    expect([without.error?.status, without.error?.code]).toEqual([400, 'reauthentication_needed']);

    expect((await client.reauthenticate()).error).toBeNull();
    const mail = await server.lastMail(email);
    expect(mail.subject).toBe('Your UpNext confirmation code');
    expect(mail.link).toBeUndefined();
    const nonce = mail.code as string;
    const wrongNonce = nonce === '000000' ? '111111' : '000000';

    const wrong = await client.updateUser({ password: 'new password one', nonce: wrongNonce });
    expect([wrong.error?.status, wrong.error?.code]).toEqual([422, 'reauthentication_not_valid']);
    const right = await client.updateUser({ password: 'new password one', nonce });
    expect(right.error).toBeNull();
    expect(
      (right.data.user as { reauthentication_sent_at?: string } | null)?.reauthentication_sent_at,
    ).toEqual(expect.any(String));
    const reused = await client.updateUser({ password: 'new password two', nonce });
    expect(reused.error?.code).toBe('reauthentication_not_valid');
    expect(
      (await server.client().signInWithPassword({ email, password: 'new password one' })).error,
    ).toBeNull();
  });

  /** GoTrue's refusal, and nothing sent or stored: no nonce, no mail, no SMS. */
  async function expectRefused(
    client: ReturnType<AuthServer['client']>,
    refusal: { status: number; code: string; message: string },
    addresses: string[],
  ) {
    const { data } = await client.getUser();
    const userId = data.user?.id as string;
    const { error } = await client.reauthenticate();
    expect({ status: error?.status, code: error?.code, message: error?.message }).toEqual(refusal);
    const nonces = await server.db
      .select()
      .from(authOneTimeTokens)
      .where(
        and(
          eq(authOneTimeTokens.userId, userId),
          eq(authOneTimeTokens.tokenType, 'reauthentication_token'),
        ),
      );
    expect(nonces).toEqual([]);
    const [row] = await server.db.select().from(authUsers).where(eq(authUsers.id, userId));
    expect(row?.reauthenticationSentAt).toBeNull();
    for (const address of addresses) expect(await server.mailbox(address)).toEqual([]);
  }

  it('refuses a user with neither email nor phone: 400 validation_failed', async () => {
    const client = server.client();
    expect((await client.signInAnonymously()).error).toBeNull();
    await expectRefused(
      client,
      {
        status: 400,
        code: 'validation_failed',
        message: 'Reauthentication requires the user to have an email or a phone number',
      },
      [],
    );
  });

  it('refuses an unconfirmed email even when the phone is confirmed: 422 email_not_confirmed', async () => {
    const email = uniqueEmail('reauth-unconfirmed');
    const phone = uniquePhone();
    const created = await server.admin().createUser({
      email,
      phone,
      password: PASSWORD,
      phone_confirm: true,
    });
    expect(created.error).toBeNull();
    const client = server.client();
    expect((await client.signInWithPassword({ phone, password: PASSWORD })).error).toBeNull();
    await expectRefused(
      client,
      { status: 422, code: 'email_not_confirmed', message: 'Please verify your email first.' },
      [email, phone],
    );
  });

  it('refuses a phone-only user whose phone is unconfirmed: 422 phone_not_confirmed', async () => {
    const phone = uniquePhone();
    const created = await server.admin().createUser({
      phone,
      password: PASSWORD,
      phone_confirm: true,
    });
    const client = server.client();
    expect((await client.signInWithPassword({ phone, password: PASSWORD })).error).toBeNull();
    // The session outlives the confirmation (no route un-confirms a phone, so the row does).
    await server.db
      .update(authUsers)
      .set({ phoneConfirmedAt: null })
      .where(eq(authUsers.id, created.data.user?.id as string));
    await expectRefused(
      client,
      { status: 422, code: 'phone_not_confirmed', message: 'Please verify your phone first.' },
      [phone],
    );
  });
});
