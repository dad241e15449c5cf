import { AuthSessionMissingError } from '@supabase/auth-js';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authIdentities, authUsers } from '../db/schema/auth.ts';
import { testDrivers } from '../test/database.ts';
import { inviteUserByEmail } from './invite.ts';
import { type AuthServer, startAuthServer, uniqueEmail } from './testing.ts';

const PASSWORD = 'correct horse battery';

describe.each(testDrivers)('admin API with auth-js (%s)', (driver) => {
  let server: AuthServer;

  beforeAll(async () => {
    server = await startAuthServer(driver, { URI_ALLOW_LIST: 'http://127.0.0.1:*/**' });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function createConfirmed(email = uniqueEmail('admin')) {
    const { data, error } = await server.admin().createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { name: 'Grace' },
      app_metadata: { tenant: 't1' },
    });
    expect(error).toBeNull();
    return { email, user: data.user };
  }

  it('creates a confirmed user who signs in at once; no email is sent', async () => {
    const { email, user } = await createConfirmed();
    expect(user?.email).toBe(email);
    expect(user?.email_confirmed_at).toEqual(expect.any(String));
    expect(user?.user_metadata).toEqual({ name: 'Grace' });
    expect(user?.app_metadata).toMatchObject({
      tenant: 't1',
      provider: 'email',
      providers: ['email'],
    });
    expect(user?.identities).toHaveLength(1);
    expect(await server.mailbox(email)).toHaveLength(0);
    const signIn = await server.client().signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error).toBeNull();
    expect(decodeJwt(signIn.data.session?.access_token as string).app_metadata).toMatchObject({
      tenant: 't1',
    });

    const duplicate = await server.admin().createUser({ email: email.toUpperCase() });
    expect(duplicate.error?.code).toBe('email_exists');
    expect(duplicate.error?.status).toBe(422);
    const weak = await server.admin().createUser({ email: uniqueEmail(), password: 'short' });
    expect(weak.error?.code).toBe('weak_password');
  });

  it('gets, updates (metadata, password, ban) and deletes users', async () => {
    const { email, user } = await createConfirmed();
    const id = user?.id as string;
    const got = await server.admin().getUserById(id);
    expect(got.data.user?.email).toBe(email);
    const missing = await server.admin().getUserById(crypto.randomUUID());
    expect(missing.error?.code).toBe('user_not_found');
    expect(missing.error?.status).toBe(404);

    const client = server.client();
    await client.signInWithPassword({ email, password: PASSWORD });
    const updated = await server.admin().updateUserById(id, {
      user_metadata: { name: null, team: 'blue' },
      app_metadata: { roles: ['staff'] },
      password: 'a brand new password',
    });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toEqual({ team: 'blue' });
    expect(updated.data.user?.app_metadata).toMatchObject({ tenant: 't1', roles: ['staff'] });
    // The new password works; the sessions signed in before are over.
    expect(
      (await server.client().signInWithPassword({ email, password: 'a brand new password' })).error,
    ).toBeNull();
    expect((await client.getUser()).error).toBeInstanceOf(AuthSessionMissingError);

    const banned = await server.admin().updateUserById(id, { ban_duration: '24h' });
    expect(banned.data.user?.banned_until).toEqual(expect.any(String));
    const refused = await server
      .client()
      .signInWithPassword({ email, password: 'a brand new password' });
    expect(refused.error?.code).toBe('user_banned');
    await server.admin().updateUserById(id, { ban_duration: 'none' });
    expect(
      (await server.client().signInWithPassword({ email, password: 'a brand new password' })).error,
    ).toBeNull();
    const moved = uniqueEmail('moved');
    const renamed = await server.admin().updateUserById(id, { email: moved, email_confirm: true });
    expect(renamed.data.user?.email).toBe(moved);
    expect(renamed.data.user?.identities?.[0]?.identity_data?.email).toBe(moved);
    expect(
      (await server.client().signInWithPassword({ email: moved, password: 'a brand new password' }))
        .error,
    ).toBeNull();
    const badBan = await server.admin().updateUserById(id, { ban_duration: 'forever' });
    expect(badBan.error?.code).toBe('validation_failed');

    const deleted = await server.admin().deleteUser(id);
    expect(deleted.error).toBeNull();
    expect(deleted.data.user?.id).toBe(id);
    expect((await server.admin().getUserById(id)).error?.code).toBe('user_not_found');
    expect(await server.db.select().from(authUsers).where(eq(authUsers.id, id))).toHaveLength(0);
  });

  it('soft-deletes: the row stays, anonymised, and the address is free again', async () => {
    const { email, user } = await createConfirmed();
    const id = user?.id as string;
    const { error } = await server.admin().deleteUser(id, true);
    expect(error).toBeNull();
    const [row] = await server.db.select().from(authUsers).where(eq(authUsers.id, id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect(row?.email).toBeNull();
    expect(row?.encryptedPassword).toBeNull();
    expect(
      await server.db.select().from(authIdentities).where(eq(authIdentities.userId, id)),
    ).toHaveLength(0);
    expect((await server.admin().getUserById(id)).error?.code).toBe('user_not_found');
    expect(
      (await server.client().signInWithPassword({ email, password: PASSWORD })).error?.code,
    ).toBe('invalid_credentials');
    expect((await server.admin().createUser({ email })).error).toBeNull();
  });

  it('lists users page by page with X-Total-Count and Link, as auth-js reads them', async () => {
    const fresh = await startAuthServer(driver);
    try {
      for (let i = 0; i < 5; i++) {
        await fresh.admin().createUser({ email: uniqueEmail('list'), email_confirm: true });
      }
      const first = await fresh.admin().listUsers({ page: 1, perPage: 2 });
      expect(first.error).toBeNull();
      if (first.error) return;
      expect(first.data.users).toHaveLength(2);
      expect(first.data.total).toBe(5);
      expect(first.data.nextPage).toBe(2);
      expect(first.data.lastPage).toBe(3);
      expect(first.data.aud).toBe('authenticated');
      const last = await fresh.admin().listUsers({ page: 3, perPage: 2 });
      expect(last.data.users).toHaveLength(1);
      expect(last.error === null && last.data.nextPage).toBeNull();
      const all = await fresh.admin().listUsers();
      const ids = all.data.users.map((user) => user.id);
      expect(new Set(ids).size).toBe(5);
      // Newest first, as GoTrue lists them by default.
      const created = all.data.users.map((user) => user.created_at);
      expect(created).toEqual([...created].sort().reverse());
      expect(first.data.users.map((user) => user.id)).toEqual(ids.slice(0, 2));
      expect(last.data.users.map((user) => user.id)).toEqual(ids.slice(4));
    } finally {
      await fresh.close();
    }
  });

  it('invites by email: the branded mail, a link that signs in, then the user sets a password', async () => {
    const email = uniqueEmail('invited');
    const redirectTo = `${server.baseUrl}/welcome`;
    const { data, error } = await server
      .admin()
      .inviteUserByEmail(email, { data: { company: 'Acme' }, redirectTo });
    expect(error).toBeNull();
    expect(data.user?.invited_at).toEqual(expect.any(String));
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect(data.user?.user_metadata).toEqual({ company: 'Acme' });
    const mail = await server.lastMail(email);
    expect(mail.subject).toBe('You have been invited to UpNext');
    expect(mail.link).toContain('type=invite');

    const response = await fetch(mail.link as string, { redirect: 'manual' });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location') as string);
    expect(`${location.origin}${location.pathname}`).toBe(redirectTo);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('invite');
    const client = server.client();
    const set = await client.setSession({
      access_token: fragment.get('access_token') as string,
      refresh_token: fragment.get('refresh_token') as string,
    });
    expect(set.error).toBeNull();
    expect(set.data.user?.email_confirmed_at).toEqual(expect.any(String));
    expect((await client.updateUser({ password: PASSWORD })).error).toBeNull();
    expect(
      (await server.client().signInWithPassword({ email, password: PASSWORD })).error,
    ).toBeNull();

    // A confirmed account cannot be invited again.
    const again = await server.admin().inviteUserByEmail(email);
    expect(again.error?.code).toBe('email_exists');
  });

  it('exports inviteUserByEmail for server-side callers, through app.authService', async () => {
    const ctx = server.app.authService.current;
    expect(ctx).toBeDefined();
    if (!ctx) return;
    const email = uniqueEmail('staff');
    const user = await inviteUserByEmail(ctx, email, {
      redirectTo: 'https://evil.example.com/steal',
      data: { staff: true },
    });
    expect(user.email).toBe(email);
    expect((user as Record<string, unknown>).invited_at).toEqual(expect.any(String));
    const mail = await server.lastMail(email);
    // An unlisted redirect falls back to SITE_URL.
    expect(mail.link).not.toContain('evil');
    expect(new URL(mail.link as string).searchParams.get('redirect_to')).toBe(server.baseUrl);
    // Without one, the invitation lands on the set-password page.
    const other = uniqueEmail('staff2');
    await inviteUserByEmail(ctx, other);
    const landing = new URL((await server.lastMail(other)).link as string);
    expect(landing.searchParams.get('redirect_to')).toBe(`${server.baseUrl}/updatepassword`);
    // The code in the mail works too (verifyOtp type invite).
    const verified = await server
      .client()
      .verifyOtp({ email, token: mail.code as string, type: 'invite' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(email);
    await expect(inviteUserByEmail(ctx, 'not an address')).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });

  it('generates links of every type that verify, without sending mail', async () => {
    const admin = server.admin();
    // signup: creates an unconfirmed user.
    const signupEmail = uniqueEmail('gl-signup');
    const signup = await admin.generateLink({
      type: 'signup',
      email: signupEmail,
      password: PASSWORD,
    });
    expect(signup.error).toBeNull();
    expect(signup.data.properties?.verification_type).toBe('signup');
    expect(signup.data.properties?.email_otp).toMatch(/^\d{6}$/);
    expect(signup.data.properties?.action_link).toContain('/auth/v1/verify?token=');
    expect(signup.data.user?.email).toBe(signupEmail);
    const confirmed = await server.client().verifyOtp({
      token_hash: signup.data.properties?.hashed_token as string,
      type: 'signup',
    });
    expect(confirmed.error).toBeNull();
    expect(
      (await server.client().signInWithPassword({ email: signupEmail, password: PASSWORD })).error,
    ).toBeNull();

    // invite
    const inviteEmail = uniqueEmail('gl-invite');
    const invite = await admin.generateLink({ type: 'invite', email: inviteEmail });
    expect(invite.data.user?.invited_at).toEqual(expect.any(String));
    const link = await fetch(invite.data.properties?.action_link as string, { redirect: 'manual' });
    expect(new URL(link.headers.get('location') as string).hash).toContain('type=invite');

    // magiclink for a confirmed user, by code
    const { email } = await createConfirmed();
    const magic = await admin.generateLink({ type: 'magiclink', email });
    expect(magic.data.properties?.verification_type).toBe('magiclink');
    const byCode = await server.client().verifyOtp({
      email,
      token: magic.data.properties?.email_otp as string,
      type: 'magiclink',
    });
    expect(byCode.error).toBeNull();

    // recovery; unknown address → 404
    const recovery = await admin.generateLink({ type: 'recovery', email });
    expect(recovery.data.properties?.verification_type).toBe('recovery');
    const recovered = await server.client().verifyOtp({
      token_hash: recovery.data.properties?.hashed_token as string,
      type: 'recovery',
    });
    expect(recovered.error).toBeNull();
    const unknown = await admin.generateLink({ type: 'recovery', email: uniqueEmail('nobody') });
    expect(unknown.error?.code).toBe('user_not_found');
    expect(unknown.error?.status).toBe(404);

    // email change from the new address alone completes the change
    const newEmail = uniqueEmail('gl-new');
    const change = await admin.generateLink({ type: 'email_change_new', email, newEmail });
    expect(change.error).toBeNull();
    expect(change.data.user?.new_email).toBe(newEmail);
    const changed = await server.client().verifyOtp({
      token_hash: change.data.properties?.hashed_token as string,
      type: 'email_change',
    });
    expect(changed.error).toBeNull();
    expect(changed.data.user?.email).toBe(newEmail);

    // email change confirmed from the current address
    const third = uniqueEmail('gl-third');
    const current = await admin.generateLink({
      type: 'email_change_current',
      email: newEmail,
      newEmail: third,
    });
    expect(current.error).toBeNull();
    const viaCurrent = await server.client().verifyOtp({
      email: newEmail,
      token: current.data.properties?.email_otp as string,
      type: 'email_change',
    });
    expect(viaCurrent.error).toBeNull();
    expect(viaCurrent.data.user?.email).toBe(third);

    const taken = await admin.generateLink({
      type: 'email_change_new',
      email: third,
      newEmail: signupEmail,
    });
    expect(taken.error?.code).toBe('email_exists');
    for (const address of [signupEmail, inviteEmail, email, newEmail, third]) {
      expect(await server.mailbox(address)).toHaveLength(0);
    }
  });

  it('lists and deletes a user’s MFA factors', async () => {
    const email = uniqueEmail('factors');
    await server.admin().createUser({ email, password: PASSWORD, email_confirm: true });
    const client = server.client();
    await client.signInWithPassword({ email, password: PASSWORD });
    const { data } = await client.mfa.enroll({ factorType: 'totp' });
    const totp = new TOTP({ secret: Secret.fromBase32(data?.totp?.secret as string) });
    const verified = await client.mfa.challengeAndVerify({
      factorId: data?.id as string,
      code: totp.generate(),
    });
    expect(verified.error).toBeNull();
    const userId = verified.data?.user.id as string;

    const listed = await server.admin().mfa.listFactors({ userId });
    expect(listed.error).toBeNull();
    expect(listed.data?.factors).toHaveLength(1);
    expect(listed.data?.factors[0]).toMatchObject({
      id: data?.id,
      factor_type: 'totp',
      status: 'verified',
    });
    const removed = await server.admin().mfa.deleteFactor({ userId, id: data?.id as string });
    expect(removed.error).toBeNull();
    // auth-js 2.119 wraps the answer ({id}) once more here.
    expect(removed.data).toEqual({ data: { id: data?.id }, error: null });
    expect((await server.admin().mfa.listFactors({ userId })).data?.factors).toEqual([]);
    const again = await server.admin().mfa.deleteFactor({ userId, id: data?.id as string });
    expect(again.error?.code).toBe('mfa_factor_not_found');
  });
});
