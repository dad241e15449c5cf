import { afterEach, describe, expect, it } from 'vitest';
import { authSendLog } from '../db/schema/auth.ts';
import { testDrivers } from '../test/database.ts';
import { type AuthServer, startAuthServer, uniquePhone } from './testing.ts';

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
  const response = await fetch(`${server.authUrl}${path}`, {
    method: 'POST',
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

async function confirmedPhone(server: AuthServer) {
  const phone = uniquePhone();
  expect((await post(server, '/signup', { phone, password: PASSWORD })).status).toBe(200);
  const { code } = await server.lastSms(phone);
  expect((await post(server, '/verify', { phone, token: code, type: 'sms' })).status).toBe(200);
  return phone;
}

describe.each(testDrivers)('phone limits and enumeration resistance (%s)', (driver) => {
  const servers: AuthServer[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const server = await startAuthServer(driver, env);
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('texts one number at most once per SMS_MAX_FREQUENCY, whether or not it has an account', async () => {
    const server = await start({ SMS_MAX_FREQUENCY: '60' });
    const known = await confirmedPhone(server);
    await server.db.delete(authSendLog);
    for (const phone of [known, uniquePhone()]) {
      const first = await post(server, '/otp', { phone, create_user: false });
      // Another spelling of the same number shares the interval.
      const second = await post(server, '/otp', {
        phone: phone.replace('+', ''),
        create_user: false,
      });
      expect(first).toEqual({ status: 200, json: {} });
      expect(second.status).toBe(429);
      expect(second.json.code).toBe('over_sms_send_rate_limit');
      expect(second.json.message).toMatch(
        /^For security purposes, you can only request this after \d+ seconds\.$/,
      );
      const resend = await post(server, '/resend', { phone, type: 'sms' });
      expect(resend.json.code).toBe('over_sms_send_rate_limit');
    }
  });

  it('answers /otp (create_user false), /resend and a repeated sign-up alike for known and unknown numbers', async () => {
    const server = await start();
    const known = await confirmedPhone(server);
    const unknown = uniquePhone();
    for (const body of [
      { path: '/otp', body: { create_user: false } },
      { path: '/resend', body: { type: 'sms' } },
      { path: '/resend', body: { type: 'phone_change' } },
    ]) {
      const a = await post(server, body.path, { ...body.body, phone: known });
      const b = await post(server, body.path, { ...body.body, phone: unknown });
      expect(a).toEqual({ status: 200, json: {} });
      expect(b).toEqual(a);
    }
    // Nobody is created, and nothing is texted to a stranger.
    expect(await server.mailbox(unknown)).toEqual([]);
    const signIn = await post(server, '/token?grant_type=password', {
      phone: unknown,
      password: PASSWORD,
    });
    expect(signIn.json.code).toBe('invalid_credentials');

    // A sign-up for a confirmed number looks like a new one; the owner is told by SMS.
    const fresh = await post(server, '/signup', { phone: uniquePhone(), password: PASSWORD });
    const repeat = await post(server, '/signup', { phone: known, password: 'another password' });
    expect(repeat.status).toBe(200);
    const shape = (json: Json) =>
      Object.keys(json)
        .filter((key) => key !== 'identities')
        .sort();
    expect(shape(repeat.json)).toEqual(shape(fresh.json));
    expect(repeat.json).toMatchObject({ phone: known.replace('+', ''), identities: [] });
    expect(repeat.json).not.toHaveProperty('access_token');
    const [notice] = await server.mailbox(known);
    expect(notice?.text).toMatch(/already has one/);
    // The owner's password did not change.
    const owner = await post(server, '/token?grant_type=password', {
      phone: known,
      password: PASSWORD,
    });
    expect(owner.status).toBe(200);
  });

  it('stops SMS over the hourly quota with 429 over_sms_send_rate_limit', async () => {
    const server = await start({ RATE_LIMIT_SMS_SENT: '2' });
    expect((await post(server, '/otp', { phone: uniquePhone() })).status).toBe(200);
    expect((await post(server, '/otp', { phone: uniquePhone() })).status).toBe(200);
    const over = await post(server, '/otp', { phone: uniquePhone() });
    expect(over.status).toBe(429);
    expect(over.json).toEqual({
      code: 'over_sms_send_rate_limit',
      message: 'SMS rate limit exceeded',
    });
  });

  it('limits phone requests per client IP', async () => {
    const server = await start({ RATE_LIMIT_OTP: '2' });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await post(server, '/otp', { phone: uniquePhone() })).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  it("limits wrong SMS codes per number and client IP; a stranger's guesses do not burn the code", async () => {
    const server = await start({ TRUST_PROXY: '127.0.0.1' });
    const phone = uniquePhone();
    await post(server, '/otp', { phone });
    const { code } = await server.lastSms(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const stranger = { 'x-forwarded-for': '203.0.113.7' };
    for (let i = 0; i < 5; i++) {
      const answer = await post(server, '/verify', { phone, token: wrong, type: 'sms' }, stranger);
      expect(answer.json.code).toBe('otp_expired');
    }
    const refused = await post(server, '/verify', { phone, token: code, type: 'sms' }, stranger);
    expect([refused.status, refused.json.code]).toEqual([429, 'over_request_rate_limit']);
    const owner = { 'x-forwarded-for': '198.51.100.20' };
    const verified = await post(server, '/verify', { phone, token: code, type: 'sms' }, owner);
    expect(verified.status).toBe(200);
  });

  it('validates numbers with one parser and refuses a token_hash for SMS', async () => {
    const server = await start();
    for (const phone of ['12', '+0491511234567', 'not a phone', '+49 151 1234567890123']) {
      const answer = await post(server, '/otp', { phone });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({
        code: 'validation_failed',
        message: 'Invalid phone number format (E.164 required)',
      });
    }
    const hash = await post(server, '/verify', { token_hash: 'abc', type: 'sms' });
    expect(hash.json.code).toBe('otp_expired');
    const whatsapp = await post(server, '/otp', { phone: uniquePhone(), channel: 'whatsapp' });
    expect(whatsapp.status).toBe(400);
    expect(whatsapp.json.code).toBe('validation_failed');
  });
});
