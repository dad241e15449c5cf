import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('runs with no variables at all: port 3000, ./data, embedded database', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(resolve('data'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.corsOrigins).toEqual([]);
    expect(config.seedDemoData).toBe(true);
  });

  it('takes PORT, DATA_DIR, DATABASE_URL, PUBLIC_URL and CORS_ORIGINS', () => {
    const config = loadConfig({
      PORT: '8080',
      DATA_DIR: '/var/lib/upnext',
      DATABASE_URL: 'postgres://app@db:5432/upnext',
      PUBLIC_URL: 'https://queue.example.com/',
      CORS_ORIGINS: 'https://a.example.com, https://b.example.com',
      SEED_DEMO_DATA: 'false',
    });
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe('/var/lib/upnext');
    expect(config.databaseUrl).toBe('postgres://app@db:5432/upnext');
    expect(config.publicUrl).toBe('https://queue.example.com');
    expect(config.corsOrigins).toEqual(['https://a.example.com', 'https://b.example.com']);
    expect(config.seedDemoData).toBe(false);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(3000);
  });

  it.each([
    ['PORT', 'abc', /PORT: must be a whole number \(got "abc"\)/],
    ['PORT', '70000', /PORT: must be between 0 and 65535/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL: must be a postgres/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL: must be one of/],
    ['PUBLIC_URL', 'not a url', /PUBLIC_URL: must be an absolute URL/],
    ['CORS_ORIGINS', 'https://a.example.com/path', /CORS_ORIGINS: .* is not an origin/],
    ['SEED_DEMO_DATA', 'maybe', /SEED_DEMO_DATA: must be true or false/],
    ['JWT_EXP', '60', /JWT_EXP: must be at least 120 seconds/],
    ['JWT_SECRET', 'short', /JWT_SECRET: must be at least 32 characters/],
    ['JWT_PRIVATE_KEY', 'abc', /JWT_PRIVATE_KEY: must be a PEM private key or a private JWK/],
    ['SMTP_URL', 'http://mail', /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/],
    ['PASSWORD_MIN_LENGTH', '4', /PASSWORD_MIN_LENGTH: must be at least 6/],
    ['MAILER_AUTOCONFIRM', 'perhaps', /MAILER_AUTOCONFIRM: must be true or false/],
    ['SITE_URL', 'nope', /SITE_URL: must be an absolute URL/],
    [
      'REALTIME_BUS_URL',
      'amqp://bus',
      /REALTIME_BUS_URL: must be a redis:\/\/, rediss:\/\/ or nats/,
    ],
    ['REALTIME_BUS_URL', 'redis://', /REALTIME_BUS_URL: must be a redis/],
    ['REALTIME_HEARTBEAT_MS', '10', /REALTIME_HEARTBEAT_MS: must be at least 100/],
    ['REALTIME_MAX_CONNECTIONS', '-1', /REALTIME_MAX_CONNECTIONS: must not be negative/],
    ['REALTIME_CONNECT_TIMEOUT_MS', '5s', /REALTIME_CONNECT_TIMEOUT_MS: must be a whole number/],
    [
      'REALTIME_IDLE_TIMEOUT_MS',
      '30000',
      /REALTIME_IDLE_TIMEOUT_MS: must be at least twice REALTIME_HEARTBEAT_MS \(40000\)/,
    ],
  ])('names the bad variable %s=%s', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('takes the realtime bus, heart-beat, timeouts and connection limits', () => {
    expect(loadConfig({}).realtime).toEqual({
      busUrl: undefined,
      heartbeatMs: 20_000,
      connectTimeoutMs: 5_000,
      idleTimeoutMs: 120_000,
      slowConsumerTimeoutMs: 30_000,
      maxConnections: 10_000,
      maxConnectionsPerIp: 50,
    });
    expect(loadConfig({ REALTIME_MAX_CONNECTIONS_PER_IP: '0' }).realtime.maxConnectionsPerIp).toBe(
      0,
    );
    expect(loadConfig({ REALTIME_BUS_URL: 'nats://127.0.0.1:4222' }).realtime.busUrl).toBe(
      'nats://127.0.0.1:4222',
    );
    expect(loadConfig({ REALTIME_BUS_URL: 'redis://:secret@cache:6379/0' }).realtime.busUrl).toBe(
      'redis://:secret@cache:6379/0',
    );
  });

  it('takes the ICE servers: none by default; TURN needs its URLs and secret together', () => {
    expect(loadConfig({}).ice).toEqual({ stunUrls: [], turn: null });
    const ice = loadConfig({
      STUN_URLS: 'stun:stun.example.com:3478, stuns:stun.example.com:5349',
      TURN_URLS: 'turn:turn.example.com:3478?transport=udp,turns:turn.example.com:5349',
      TURN_SECRET: 'a-long-shared-secret',
    }).ice;
    expect(ice).toEqual({
      stunUrls: ['stun:stun.example.com:3478', 'stuns:stun.example.com:5349'],
      turn: {
        urls: ['turn:turn.example.com:3478?transport=udp', 'turns:turn.example.com:5349'],
        secret: 'a-long-shared-secret',
        ttlSeconds: 14_400,
      },
    });
    expect(() => loadConfig({ TURN_URLS: 'turn:t.example.com' })).toThrow(
      /TURN_SECRET: must be set with TURN_URLS/,
    );
    expect(() => loadConfig({ TURN_SECRET: 'a-long-shared-secret' })).toThrow(
      /TURN_URLS: must be set with TURN_SECRET/,
    );
    expect(() => loadConfig({ STUN_URLS: 'turn:t.example.com' })).toThrow(
      /STUN_URLS: "turn:t.example.com" is not a URL like stun:host:3478/,
    );
    expect(() => loadConfig({ TURN_URLS: 'turn:t.example.com', TURN_SECRET: 'short' })).toThrow(
      /TURN_SECRET: must be at least 16 characters/,
    );
    expect(() => loadConfig({ TURN_CREDENTIAL_TTL: '10' })).toThrow(/TURN_CREDENTIAL_TTL/);
  });

  it('takes the Stripe keys together or not at all, and never echoes a malformed secret', () => {
    expect(loadConfig({}).payments.stripe).toBeNull();
    const config = loadConfig({
      STRIPE_SECRET_KEY: 'sk_test_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_def456',
      STRIPE_API_URL: 'http://127.0.0.1:12111',
    });
    expect(config.payments.stripe).toEqual({
      secretKey: 'sk_test_abc123',
      webhookSecret: 'whsec_def456',
      apiUrl: 'http://127.0.0.1:12111',
    });
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc123' })).toThrow(
      /STRIPE_WEBHOOK_SECRET: must be set with STRIPE_SECRET_KEY/,
    );
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_def456' })).toThrow(
      /STRIPE_SECRET_KEY: must be set with STRIPE_WEBHOOK_SECRET/,
    );
    let message = '';
    try {
      loadConfig({ STRIPE_SECRET_KEY: 'pk_test_oops-leaked', STRIPE_WEBHOOK_SECRET: 'whsec_x' });
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(/STRIPE_SECRET_KEY: must be a Stripe secret key/);
    expect(message).not.toContain('oops-leaked');
  });

  it('lists every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT[\s\S]*LOG_LEVEL/);
  });

  it('gives the auth service safe defaults: confirmation by email, no anonymous users, limits on', () => {
    const { auth } = loadConfig({ PUBLIC_URL: 'https://queue.example.com' });
    expect(auth).toMatchObject({
      siteUrl: 'https://queue.example.com',
      uriAllowList: [],
      externalUrl: 'https://queue.example.com/auth/v1',
      jwtIssuer: 'https://queue.example.com/auth/v1',
      jwtExp: 3600,
      jwtAud: 'authenticated',
      mailerAutoconfirm: false,
      mailerSecureEmailChange: true,
      anonymousSignInsEnabled: false,
      enumerationProtection: true,
      disableSignup: false,
      passwordMinLength: 8,
      refreshTokenReuseInterval: 10,
      updatePasswordRequireReauthentication: true,
      sessionsTimebox: 0,
      sessionsInactivityTimeout: 0,
      mailerOtpExp: 3600,
      smtpUrl: undefined,
      smtpFrom: 'UpNext <no-reply@queue.example.com>',
      smtpMaxFrequency: 60,
      rateLimits: { token: 150, otp: 30, verify: 30, emailSent: 30 },
    });
    expect(auth.jwtSecret).toBeUndefined();
    expect(auth.jwtPrivateKey).toBeUndefined();
  });

  it('takes the auth settings from the environment', () => {
    const { auth } = loadConfig({
      SITE_URL: 'https://app.example.com/',
      URI_ALLOW_LIST: 'https://*.example.com/**, com.example.app://callback',
      MAILER_AUTOCONFIRM: 'true',
      ANONYMOUS_SIGN_INS_ENABLED: 'true',
      JWT_EXP: '900',
      SMTP_URL: 'smtp://user:pass@mail.example.com:587',
      SMTP_FROM: 'Queue <queue@example.com>',
      RATE_LIMIT_TOKEN: '0',
    });
    expect(auth.siteUrl).toBe('https://app.example.com');
    expect(auth.uriAllowList).toEqual(['https://*.example.com/**', 'com.example.app://callback']);
    expect(auth.mailerAutoconfirm).toBe(true);
    expect(auth.anonymousSignInsEnabled).toBe(true);
    expect(auth.jwtExp).toBe(900);
    expect(auth.smtpUrl).toBe('smtp://user:pass@mail.example.com:587');
    expect(auth.smtpFrom).toBe('Queue <queue@example.com>');
    expect(auth.rateLimits.token).toBe(0);
  });
  it('takes the Twilio settings and names what SMS_PROVIDER=twilio still needs', () => {
    const sid = `AC${'a'.repeat(32)}`;
    const { auth } = loadConfig({
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: sid,
      TWILIO_AUTH_TOKEN: 'x'.repeat(32),
      TWILIO_MESSAGE_SERVICE_SID: '+15005550006',
      RATE_LIMIT_SMS_SENT: '5',
    });
    expect(auth.sms.provider).toBe('twilio');
    expect(auth.sms.twilio).toMatchObject({ accountSid: sid, apiUrl: 'https://api.twilio.com' });
    expect(auth.rateLimits.smsSent).toBe(5);
    expect(loadConfig({}).auth.sms).toMatchObject({ provider: null, twilio: null, otpExp: 60 });
    expect(() => loadConfig({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: sid })).toThrow(
      /TWILIO_AUTH_TOKEN: is required when SMS_PROVIDER=twilio\n {2}TWILIO_MESSAGE_SERVICE_SID/,
    );
    expect(() => loadConfig({ TWILIO_AUTH_TOKEN: 'x'.repeat(32) })).toThrow(
      /SMS_PROVIDER: must be twilio/,
    );
    expect(() => loadConfig({ SMS_PROVIDER: 'vonage' })).toThrow(ConfigError);
    expect(() => loadConfig({ TWILIO_ACCOUNT_SID: 'nope', SMS_PROVIDER: 'twilio' })).toThrow(
      /TWILIO_ACCOUNT_SID: must look like AC/,
    );
  });
});
