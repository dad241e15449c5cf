import { randomUUID } from 'node:crypto';
import { AuthClient } from '@supabase/auth-js';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authAuditLog } from '../db/schema/auth.ts';
import { testDrivers } from '../test/database.ts';
import { type AuthServer, startAuthServer, uniqueEmail } from './testing.ts';
import { softwareAuthenticator } from './webauthn-authenticator.ts';

const PASSWORD = 'correct horse battery';

type Authenticator = ReturnType<typeof softwareAuthenticator>;
type CreationJson = Parameters<Authenticator['create']>[0];
type RequestJson = Parameters<Authenticator['get']>[0];

describe.each(testDrivers)('admin passkey API with auth-js (%s)', (driver) => {
  let server: AuthServer;

  beforeAll(async () => {
    server = await startAuthServer(driver, { MAILER_AUTOCONFIRM: 'true' });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A signed-up user with one passkey, registered as auth-js's registerPasskey does. */
  async function userWithPasskey() {
    const client = server.client();
    const { data, error } = await client.signUp({
      email: uniqueEmail('admin-pk'),
      password: PASSWORD,
    });
    expect(error).toBeNull();
    const authenticator = softwareAuthenticator(server.baseUrl);
    const options = await client.passkey.startRegistration();
    const registered = await client.passkey.verifyRegistration({
      challengeId: options.data?.challenge_id as string,
      credential: authenticator.create(options.data?.options as unknown as CreationJson) as never,
    });
    expect(registered.error).toBeNull();
    return {
      userId: data.user?.id as string,
      token: data.session?.access_token as string,
      authenticator,
      passkeyId: registered.data?.id as string,
    };
  }

  async function signInWithPasskey(authenticator: Authenticator) {
    const client = server.client();
    const options = await client.passkey.startAuthentication();
    return client.passkey.verifyAuthentication({
      challengeId: options.data?.challenge_id as string,
      credential: authenticator.get(options.data?.options as unknown as RequestJson) as never,
    });
  }

  it('lists a user’s passkeys and deletes one: it signs nobody in afterwards', async () => {
    const { userId, authenticator, passkeyId } = await userWithPasskey();
    const admin = server.admin();

    const listed = await admin.passkey.listPasskeys({ userId });
    expect(listed.error).toBeNull();
    expect(listed.data).toEqual([
      { id: passkeyId, friendly_name: 'Passkey', created_at: expect.any(String) },
    ]);

    const removed = await admin.passkey.deletePasskey({ userId, passkeyId });
    expect(removed).toEqual({ data: null, error: null });
    expect((await admin.passkey.listPasskeys({ userId })).data).toEqual([]);
    const signIn = await signInWithPasskey(authenticator);
    expect(signIn.error?.code).toBe('webauthn_verification_failed');

    // Recorded against the user, marked as an admin's removal.
    const [event] = await server.db
      .select()
      .from(authAuditLog)
      .where(and(eq(authAuditLog.actorId, userId), eq(authAuditLog.action, 'passkey_deleted')));
    expect(event?.traits).toEqual({ passkey_id: passkeyId, by: null });
  });

  it('answers 404 for an unknown user, an unknown passkey and another user’s passkey', async () => {
    const owner = await userWithPasskey();
    const other = await userWithPasskey();
    const admin = server.admin();

    const noUser = await admin.passkey.listPasskeys({ userId: randomUUID() });
    expect(noUser.error).toMatchObject({ status: 404, code: 'user_not_found' });
    const noUserDelete = await admin.passkey.deletePasskey({
      userId: randomUUID(),
      passkeyId: owner.passkeyId,
    });
    expect(noUserDelete.error).toMatchObject({ status: 404, code: 'user_not_found' });

    for (const passkeyId of [randomUUID(), other.passkeyId]) {
      const missing = await admin.passkey.deletePasskey({ userId: owner.userId, passkeyId });
      expect(missing.error).toMatchObject({ status: 404, code: 'validation_failed' });
    }
    // Nothing was removed: both still sign in.
    expect((await signInWithPasskey(owner.authenticator)).error).toBeNull();
    expect((await signInWithPasskey(other.authenticator)).error).toBeNull();
  });

  it('refuses callers without an admin role with 403 not_admin', async () => {
    const { userId, token, passkeyId } = await userWithPasskey();
    for (const bearer of [token, server.anonKey]) {
      const notAdmin = new AuthClient({
        url: server.authUrl,
        headers: { Authorization: `Bearer ${bearer}`, apikey: server.anonKey },
        autoRefreshToken: false,
        persistSession: false,
        detectSessionInUrl: false,
      }).admin;
      const listed = await notAdmin.passkey.listPasskeys({ userId });
      expect(listed.error).toMatchObject({ status: 403, code: 'not_admin' });
      const removed = await notAdmin.passkey.deletePasskey({ userId, passkeyId });
      expect(removed.error).toMatchObject({ status: 403, code: 'not_admin' });
    }
    expect((await server.admin().passkey.listPasskeys({ userId })).data).toHaveLength(1);
  });
});
