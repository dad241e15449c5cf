import { AuthApiError } from '@supabase/auth-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../test/database.ts';
import { type AuthServer, startAuthServer, uniqueEmail, uniquePhone } from './testing.ts';

const PASSWORD = 'correct horse battery';
const digits = (phone: string) => phone.replace(/\D/g, '');

describe.each(testDrivers)('phone sign-in with auth-js (%s)', (driver) => {
  let server: AuthServer;
  let autoconfirm: AuthServer;

  beforeAll(async () => {
    server = await startAuthServer(driver);
    autoconfirm = await startAuthServer(driver, {
      SMS_AUTOCONFIRM: 'true',
      MAILER_AUTOCONFIRM: 'true',
    });
  });
  afterAll(async () => {
    await server?.close();
    await autoconfirm?.close();
  });

  /** Signs up by phone and confirms with the SMS code from the dev mailbox. */
  async function confirmedPhoneUser(phone = uniquePhone()) {
    const client = server.client();
    const { error } = await client.signUp({ phone, password: PASSWORD });
    expect(error).toBeNull();
    const { code } = await server.lastSms(phone);
    const verified = await client.verifyOtp({ phone, token: code as string, type: 'sms' });
    expect(verified.error).toBeNull();
    return { client, phone, session: verified.data.session };
  }

  it('reports phone sign-in in /settings when an SMS path exists', async () => {
    const settings = (await (await fetch(`${server.authUrl}/settings`)).json()) as {
      external: { phone: boolean };
      phone_autoconfirm: boolean;
      sms_provider: string;
    };
    expect(settings.external.phone).toBe(true);
    expect(settings.phone_autoconfirm).toBe(false);
    expect(settings.sms_provider).toBe('');
    const auto = (await (await fetch(`${autoconfirm.authUrl}/settings`)).json()) as {
      phone_autoconfirm: boolean;
    };
    expect(auto.phone_autoconfirm).toBe(true);
  });

  it('signs up by phone: a user without session, a branded SMS code, verify signs in', async () => {
    const client = server.client();
    const phone = uniquePhone();
    const { data, error } = await client.signUp({
      phone: `${phone.slice(0, 6)} ${phone.slice(6)}`,
      password: PASSWORD,
      options: { data: { display_name: 'Grace' } },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.phone).toBe(digits(phone));
    expect(data.user?.phone_confirmed_at).toBeUndefined();
    expect(data.user?.app_metadata).toEqual({ provider: 'phone', providers: ['phone'] });

    const sms = await server.lastSms(phone);
    expect(sms.to).toBe(`+${digits(phone)}`);
    expect(sms.subject).toBe('SMS');
    expect(sms.text).toMatch(/^UpNext: \d{6} is your sign-in code\. It expires in 60 seconds\./);
    expect(sms.text).toContain(`@127.0.0.1 #${sms.code}`);

    const wrong = await client.verifyOtp({ phone, token: '000000', type: 'sms' });
    expect(wrong.error?.code).toBe('otp_expired');
    const verified = await client.verifyOtp({ phone, token: sms.code as string, type: 'sms' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.access_token).toEqual(expect.any(String));
    expect(verified.data.user?.phone_confirmed_at).toEqual(expect.any(String));
    const identity = verified.data.user?.identities?.[0];
    expect(identity?.provider).toBe('phone');
    expect(identity?.identity_data?.phone_verified).toBe(true);
    const again = await client.verifyOtp({ phone, token: sms.code as string, type: 'sms' });
    expect(again.error?.code).toBe('otp_expired');
  });

  it('signs in with phone and password, only once the number is confirmed', async () => {
    const phone = uniquePhone();
    const client = server.client();
    await client.signUp({ phone, password: PASSWORD });
    const early = await server.client().signInWithPassword({ phone, password: PASSWORD });
    expect(early.error).toBeInstanceOf(AuthApiError);
    expect(early.error?.code).toBe('phone_not_confirmed');

    const { code } = await server.lastSms(phone);
    await client.verifyOtp({ phone, token: code as string, type: 'sms' });
    // Any spelling of the number finds the account.
    const signedIn = await server
      .client()
      .signInWithPassword({ phone: `+${digits(phone)}`, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.user?.phone).toBe(digits(phone));
    const wrong = await server.client().signInWithPassword({ phone, password: 'wrong password!' });
    expect(wrong.error?.code).toBe('invalid_credentials');
    const unknown = await server
      .client()
      .signInWithPassword({ phone: uniquePhone(), password: PASSWORD });
    expect(unknown.error?.code).toBe('invalid_credentials');
  });

  it('signs in with an SMS code (signInWithOtp + verifyOtp), creating the user the first time', async () => {
    const phone = uniquePhone();
    const client = server.client();
    const sent = await client.signInWithOtp({ phone });
    expect(sent.error).toBeNull();
    const first = await server.lastSms(phone);
    const verified = await client.verifyOtp({ phone, token: first.code as string, type: 'sms' });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.phone).toBe(digits(phone));

    // A confirmed user gets a fresh code the next time.
    const other = server.client();
    expect((await other.signInWithOtp({ phone, options: { shouldCreateUser: false } })).error).toBe(
      null,
    );
    const second = await server.lastSms(phone);
    expect(second.id).not.toBe(first.id);
    const again = await other.verifyOtp({ phone, token: second.code as string, type: 'sms' });
    expect(again.error).toBeNull();
    expect(again.data.user?.id).toBe(verified.data.user?.id);
  });

  it('answers WhatsApp as unsupported and bad numbers with validation_failed', async () => {
    const whatsapp = await server
      .client()
      .signInWithOtp({ phone: uniquePhone(), options: { channel: 'whatsapp' } });
    expect(whatsapp.error?.status).toBe(400);
    expect(whatsapp.error?.code).toBe('validation_failed');
    const bad = await server.client().signUp({ phone: '+0123', password: PASSWORD });
    expect(bad.error?.code).toBe('validation_failed');
    expect(bad.error?.message).toMatch(/E\.164/);
  });

  it('changes the phone with a code sent to the new number (updateUser + verify phone_change)', async () => {
    const { client } = await confirmedPhoneUser();
    const next = uniquePhone();
    const updated = await client.updateUser({ phone: next });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.new_phone).toBe(digits(next));
    const sms = await server.lastSms(next);
    expect(sms.text).toMatch(/is your code to confirm this number/);

    // resend phone_change: a new code, the old one no longer works.
    const resent = await client.resend({ type: 'phone_change', phone: next });
    expect(resent.error).toBeNull();
    const fresh = await server.lastSms(next);
    expect(fresh.id).not.toBe(sms.id);

    const verified = await client.verifyOtp({
      phone: next,
      token: fresh.code as string,
      type: 'phone_change',
    });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.phone).toBe(digits(next));
    expect(verified.data.user?.new_phone).toBeUndefined();
    const signedIn = await server.client().signInWithPassword({ phone: next, password: PASSWORD });
    expect(signedIn.error).toBeNull();
  });

  it('refuses a phone change to a number another account has', async () => {
    const a = await confirmedPhoneUser();
    const b = await confirmedPhoneUser();
    const taken = await b.client.updateUser({ phone: a.phone });
    expect(taken.error?.code).toBe('phone_exists');
    expect(taken.error?.status).toBe(422);
  });

  it('adds a phone to an email account', async () => {
    const client = autoconfirm.client();
    const email = uniqueEmail('withphone');
    const { error } = await client.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    // SMS autoconfirm: the change applies at once.
    const phone = uniquePhone();
    const updated = await client.updateUser({ phone });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.phone).toBe(digits(phone));
    expect(updated.data.user?.app_metadata.providers).toEqual(['email', 'phone']);
    const signedIn = await autoconfirm.client().signInWithPassword({ phone, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.user?.email).toBe(email);
  });

  it('resends the sign-up code (resend type sms) and the new code confirms', async () => {
    const phone = uniquePhone();
    const client = server.client();
    await client.signUp({ phone, password: PASSWORD });
    const first = await server.lastSms(phone);
    const resent = await client.resend({ type: 'sms', phone });
    expect(resent.error).toBeNull();
    const second = await server.lastSms(phone);
    expect(second.id).not.toBe(first.id);
    const stale = await client.verifyOtp({ phone, token: first.code as string, type: 'sms' });
    if (first.code !== second.code) expect(stale.error?.code).toBe('otp_expired');
    const verified = await client.verifyOtp({ phone, token: second.code as string, type: 'sms' });
    expect(verified.error).toBeNull();
  });

  it('signs up with SMS autoconfirm: a session at once, a repeat is refused', async () => {
    const phone = uniquePhone();
    const { data, error } = await autoconfirm.client().signUp({ phone, password: PASSWORD });
    expect(error).toBeNull();
    expect(data.session?.access_token).toEqual(expect.any(String));
    expect(data.user?.phone_confirmed_at).toEqual(expect.any(String));
    expect(await autoconfirm.mailbox(phone)).toEqual([]);
    const again = await autoconfirm.client().signUp({ phone, password: PASSWORD });
    expect(again.error?.code).toBe('user_already_exists');
  });
});
