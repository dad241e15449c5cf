import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSessions } from '../db/schema/auth.ts';
import { testDrivers } from '../test/database.ts';
import { type AuthServer, startAuthServer, uniqueEmail } from './testing.ts';

const PASSWORD = 'correct horse battery';

describe.each(testDrivers)('reauthentication before a password change (%s)', (driver) => {
  let server: AuthServer;
  beforeAll(async () => {
    server = await startAuthServer(driver);
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
});
