import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loggerOptions } from '../lib/logger.ts';
import { AuthError } from './errors.ts';
import { SmsSendError, sendSms, twilioSms } from './sms.ts';
import { type AuthServer, freePort, startAuthServer, uniquePhone } from './testing.ts';

/**
 * Twilio cannot be reached from here: these tests run the adapter against a local fake of
 * Twilio's Messages endpoint, which records each request and answers as told.
 */
const SID = `AC${'0123456789abcdef'.repeat(2)}`;
const TOKEN = 'twilio-auth-token-secret-1234567890';
const SERVICE = `MG${'fedcba9876543210'.repeat(2)}`;

type Received = { method: string; url: string; headers: IncomingMessage['headers']; body: string };

async function startFakeTwilio() {
  const received: Received[] = [];
  let answer: { status: number; body: unknown } = {
    status: 201,
    body: { sid: 'SM123', status: 'queued' },
  };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body,
      });
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer(status: number, body: unknown) {
      answer = { status, body };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type FakeTwilio = Awaited<ReturnType<typeof startFakeTwilio>>;

describe('Twilio adapter against a fake Twilio', () => {
  let twilio: FakeTwilio;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
  });
  afterAll(() => twilio?.close());
  beforeEach(() => {
    twilio.received.length = 0;
    twilio.answer(201, { sid: 'SM123', status: 'queued' });
  });

  const sender = (messageServiceSid = SERVICE) =>
    twilioSms({ accountSid: SID, authToken: TOKEN, messageServiceSid, apiUrl: twilio.url });

  it('POSTs a form to Messages.json with basic auth and the messaging service', async () => {
    await sender().send('4915112345678', 'UpNext: 123456 is your code');
    expect(twilio.received).toHaveLength(1);
    const [request] = twilio.received as [Received];
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(request.headers.authorization).toBe(
      `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`,
    );
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(request.body);
    expect(form.get('To')).toBe('+4915112345678');
    expect(form.get('Body')).toBe('UpNext: 123456 is your code');
    expect(form.get('MessagingServiceSid')).toBe(SERVICE);
    expect(form.has('From')).toBe(false);
  });

  it('sends From when configured with a number instead of a service', async () => {
    await sender('+15005550006').send('4915112345678', 'hello');
    const form = new URLSearchParams(twilio.received[0]?.body);
    expect(form.get('From')).toBe('+15005550006');
    expect(form.has('MessagingServiceSid')).toBe(false);
  });

  it('maps a refusal (4xx) to a permanent failure and 400 sms_send_failed', async () => {
    twilio.answer(400, { code: 21211, message: "The 'To' number is not valid.", status: 400 });
    const error = await sender()
      .send('4915112345678', 'x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsSendError);
    expect((error as SmsSendError).transient).toBe(false);
    expect((error as SmsSendError).providerCode).toBe('21211');
    const answered = await sendSms({ sms: sender() }, '4915112345678', 'x').catch(
      (e: unknown) => e,
    );
    expect(answered).toBeInstanceOf(AuthError);
    expect((answered as AuthError).status).toBe(400);
    expect((answered as AuthError).code).toBe('sms_send_failed');
  });

  it('maps 5xx, 429 and an unreachable Twilio to a transient failure and 500 sms_send_failed', async () => {
    for (const status of [503, 429]) {
      twilio.answer(status, { code: 20500, message: 'Internal Server Error' });
      const answered = await sendSms({ sms: sender() }, '4915112345678', 'x').catch(
        (e: unknown) => e,
      );
      expect((answered as AuthError).status).toBe(500);
      expect((answered as AuthError).code).toBe('sms_send_failed');
    }
    const unreachable = twilioSms({
      accountSid: SID,
      authToken: TOKEN,
      messageServiceSid: SERVICE,
      apiUrl: `http://127.0.0.1:${await freePort()}`,
    });
    const error = await unreachable.send('4915112345678', 'x').catch((e: unknown) => e);
    expect((error as SmsSendError).transient).toBe(true);
  });

  it('treats a message Twilio accepts but marks failed as a failure', async () => {
    twilio.answer(201, { sid: 'SM1', status: 'failed' });
    const error = await sender()
      .send('4915112345678', 'x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsSendError);
  });

  it('answers 422 phone_provider_disabled without a sender and 429 over the quota', async () => {
    const none = await sendSms({ sms: null }, '4915112345678', 'x').catch((e: unknown) => e);
    expect((none as AuthError).code).toBe('phone_provider_disabled');
    let taken = 0;
    const quota = {
      take() {
        taken++;
        if (taken > 1) throw new AuthError(429, 'over_sms_send_rate_limit', 'SMS rate limit');
      },
    };
    await sendSms({ sms: sender(), smsQuota: quota }, '4915112345678', 'x');
    const over = await sendSms({ sms: sender(), smsQuota: quota }, '4915112345678', 'x').catch(
      (e: unknown) => e,
    );
    expect((over as AuthError).code).toBe('over_sms_send_rate_limit');
    expect(twilio.received).toHaveLength(1);
  });
});

describe('phone sign-in through Twilio (fake) end to end', () => {
  let twilio: FakeTwilio;
  let server: AuthServer;
  const lines: string[] = [];

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    const logger = pino(loggerOptions({ logLevel: 'trace', env: 'test' }), sink);
    server = await startAuthServer(
      'pglite',
      {
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: SID,
        TWILIO_AUTH_TOKEN: TOKEN,
        TWILIO_MESSAGE_SERVICE_SID: SERVICE,
        TWILIO_API_URL: twilio.url,
      },
      { logger },
    );
  });
  afterAll(async () => {
    await server?.close();
    await twilio?.close();
  });
  beforeEach(() => {
    twilio.received.length = 0;
    twilio.answer(201, { sid: 'SM123', status: 'queued' });
  });

  it('texts the sign-up code through Twilio (not the mailbox) and never logs it or the token', async () => {
    const settings = (await (await fetch(`${server.authUrl}/settings`)).json()) as {
      external: { phone: boolean };
      sms_provider: string;
    };
    expect(settings).toMatchObject({ external: { phone: true }, sms_provider: 'twilio' });

    const phone = uniquePhone();
    const client = server.client();
    const { error } = await client.signUp({ phone, password: 'correct horse battery' });
    expect(error).toBeNull();
    expect(twilio.received).toHaveLength(1);
    const body = new URLSearchParams(twilio.received[0]?.body).get('Body') ?? '';
    const code = /(\d{6}) is your sign-in code/.exec(body)?.[1] as string;
    expect(code).toMatch(/^\d{6}$/);
    expect(await server.mailbox(phone)).toEqual([]);
    const verified = await client.verifyOtp({ phone, token: code, type: 'sms' });
    expect(verified.error).toBeNull();

    const log = lines.join('');
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain(body);
    expect(log).not.toContain(`${code} is your`);
  });

  it('answers sms_send_failed when Twilio refuses, and 500 only when it is down', async () => {
    twilio.answer(400, { code: 21211, message: "The 'To' number is not valid." });
    const refused = await server.client().signInWithOtp({ phone: uniquePhone() });
    expect(refused.error?.status).toBe(400);
    expect(refused.error?.code).toBe('sms_send_failed');

    twilio.answer(503, { code: 20500, message: 'Service Unavailable' });
    // auth-js reads a 5xx as retryable (AuthRetryableFetchError), which it is.
    const down = await server.client().signInWithOtp({ phone: uniquePhone() });
    expect(down.error?.name).toBe('AuthRetryableFetchError');
    expect(down.error?.status).toBe(500);
    const raw = await fetch(`${server.authUrl}/otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: uniquePhone() }),
    });
    expect(raw.status).toBe(500);
    expect(raw.headers.get('x-sb-error-code')).toBe('sms_send_failed');
    expect(await raw.text()).not.toContain('Twilio');
    expect(lines.join('')).not.toContain(TOKEN);
  });
});

describe('phone sign-in in production without an SMS provider', () => {
  let server: AuthServer;
  beforeAll(async () => {
    server = await startAuthServer('pglite', {
      NODE_ENV: 'production',
      JWT_SECRET: 'a-test-secret-that-is-long-enough-000',
    });
  });
  afterAll(() => server?.close());

  it('is off: /settings says so and every phone route answers phone_provider_disabled', async () => {
    const settings = (await (await fetch(`${server.authUrl}/settings`)).json()) as {
      external: { phone: boolean };
    };
    expect(settings.external.phone).toBe(false);
    const phone = uniquePhone();
    const client = server.client();
    const results = [
      await client.signUp({ phone, password: 'correct horse battery' }),
      await client.signInWithOtp({ phone }),
      await client.signInWithPassword({ phone, password: 'correct horse battery' }),
      await client.verifyOtp({ phone, token: '123456', type: 'sms' }),
      await client.resend({ phone, type: 'sms' }),
    ];
    for (const result of results) {
      expect(result.error?.status).toBe(422);
      expect(result.error?.code).toBe('phone_provider_disabled');
    }
  });
});
