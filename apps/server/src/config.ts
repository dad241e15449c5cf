import { resolve } from 'node:path';
import { z } from 'zod';
import serverPackage from '../package.json' with { type: 'json' };

/**
 * The only place that reads `process.env`. Parsed once at start; a bad value stops the
 * process with a message naming the variable, instead of failing later in an odd place.
 */
const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const urlFromEnv = z.url({ error: 'must be an absolute URL' });

const seconds = z.coerce
  .number({ error: 'must be a whole number of seconds' })
  .int('must be a whole number of seconds')
  .min(0, 'must not be negative');

const milliseconds = z.coerce
  .number({ error: 'must be a whole number of milliseconds' })
  .int('must be a whole number of milliseconds')
  .min(0, 'must not be negative');

/** A count limit: requests per window (per client IP), connections at once; 0 switches it off. */
const perWindow = z.coerce
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .min(0, 'must not be negative');

/** A comma-separated list of ICE server URLs of the given schemes (`stun:host:3478`, ...). */
function iceUrlList(schemes: readonly string[]) {
  const pattern = new RegExp(`^(${schemes.join('|')}):[^\\s,?]+(\\?transport=(udp|tcp))?$`);
  return z.string().transform((value, ctx) => {
    const urls = value
      .split(',')
      .map((url) => url.trim())
      .filter(Boolean);
    for (const url of urls) {
      if (!pattern.test(url)) {
        ctx.addIssue({
          code: 'custom',
          message: `"${url}" is not a URL like ${schemes[0]}:host:3478`,
        });
      }
    }
    return urls;
  });
}

/** localhost, 127.0.0.0/8 or ::1: reachable from this machine only. */
function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

const envSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], {
      error: 'must be development, production or test',
    })
    .default('development'),
  HOST: z.string().min(1).default('localhost'),
  PORT: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000),
  PUBLIC_URL: urlFromEnv.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  SENTRY_DSN: urlFromEnv.optional(),
  /** Bearer token that Prometheus sends to /metrics; without it /metrics does not exist. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const origins = value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean);
      for (const origin of origins) {
        if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
          ctx.addIssue({
            code: 'custom',
            message: `"${origin}" is not an origin like https://app.example.com`,
          });
        }
      }
      return origins;
    }),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value): boolean | string => {
      if (value === 'true') return true;
      if (value === 'false' || value === '') return false;
      return value; // comma-separated addresses or CIDRs of the trusted proxies
    }),
  /** Redis shared by every instance: rate limits and send quotas (this instance's memory without). */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/[^\s/]+/, 'must be a redis:// or rediss:// URL')
    .refine((value) => URL.canParse(value), 'must be a redis:// or rediss:// URL')
    .optional(),
  SEED_DEMO_DATA: booleanFromEnv.default(true),
  SEED_DEMO_ACCOUNTS: booleanFromEnv.optional(),
  /** The developer mailbox at /auth/v1/dev/mailbox (default: a local developer's server only). */
  DEV_MAILBOX: booleanFromEnv.optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  // The auth service (/auth/v1). GoTrue's names without the GOTRUE_ prefix where one exists.
  SITE_URL: urlFromEnv.optional(),
  URI_ALLOW_LIST: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    ),
  JWT_EXP: seconds.min(120, 'must be at least 120 seconds').default(3600),
  JWT_AUD: z.string().min(1).default('authenticated'),
  JWT_ISSUER: z.string().min(1).optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  JWT_PRIVATE_KEY: z
    .string()
    .refine(
      (value) => value.trim().startsWith('{') || value.includes('-----BEGIN'),
      'must be a PEM private key or a private JWK (JSON)',
    )
    .optional(),
  HOSTED_AUTH_URL: urlFromEnv.optional(),
  MAILER_AUTOCONFIRM: booleanFromEnv.default(false),
  MAILER_SECURE_EMAIL_CHANGE_ENABLED: booleanFromEnv.default(true),
  MAILER_OTP_EXP: seconds.min(60).max(86_400).default(3600),
  DISABLE_SIGNUP: booleanFromEnv.default(false),
  ANONYMOUS_SIGN_INS_ENABLED: booleanFromEnv.default(false),
  ENUMERATION_PROTECTION: booleanFromEnv.default(true),
  PASSWORD_MIN_LENGTH: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(6, 'must be at least 6')
    .max(72, 'must be at most 72')
    .default(8),
  REFRESH_TOKEN_REUSE_INTERVAL: seconds.default(10),
  UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION: booleanFromEnv.default(true),
  SESSIONS_TIMEBOX: seconds.default(0),
  SESSIONS_INACTIVITY_TIMEOUT: seconds.default(0),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  SMTP_FROM: z.string().min(3).optional(),
  SMTP_MAX_FREQUENCY: seconds.default(60),
  RATE_LIMIT_EMAIL_SENT: perWindow.default(30),
  RATE_LIMIT_TOKEN: perWindow.default(150),
  RATE_LIMIT_OTP: perWindow.default(30),
  RATE_LIMIT_VERIFY: perWindow.default(30),
  RATE_LIMIT_SIGNIN_FAILURES: perWindow.default(10),
  RATE_LIMIT_WRONG_CODES: perWindow.default(5),
  // OAuth / OpenID Connect sign-in (auth/oauth). A provider is on when its id and secret are set.
  EXTERNAL_OIDC_ISSUER: urlFromEnv.optional(),
  EXTERNAL_OIDC_CLIENT_ID: z.string().min(1).optional(),
  EXTERNAL_OIDC_SECRET: z.string().min(1).optional(),
  EXTERNAL_OIDC_NAME: z.string().min(1).max(60).default('Single sign-on'),
  EXTERNAL_GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  EXTERNAL_GOOGLE_SECRET: z.string().min(1).optional(),
  EXTERNAL_GITHUB_CLIENT_ID: z.string().min(1).optional(),
  EXTERNAL_GITHUB_SECRET: z.string().min(1).optional(),
  EXTERNAL_GITHUB_URL: urlFromEnv.default('https://github.com'),
  EXTERNAL_GITHUB_API_URL: urlFromEnv.default('https://api.github.com'),
  SECURITY_MANUAL_LINKING_ENABLED: booleanFromEnv.default(false),
  RATE_LIMIT_MFA: perWindow.default(15),
  MFA_MAX_ENROLLED_FACTORS: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(10),
  MFA_CHALLENGE_EXPIRY_DURATION: seconds.min(30).max(3600).default(300),
  MFA_PHONE_ENROLL_ENABLED: booleanFromEnv.default(false),
  /** Passkeys and WebAuthn factors: how long a ceremony's challenge may be answered. */
  WEBAUTHN_CHALLENGE_EXPIRY_DURATION: seconds.min(30).max(3600).default(300),
  // Phone sign-in: SMS through Twilio; without a provider, SMS go to the developer mailbox.
  SMS_PROVIDER: z.enum(['twilio'], { error: 'must be twilio (or unset)' }).optional(),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC\w{32}$/, 'must look like AC followed by 32 characters')
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  TWILIO_MESSAGE_SERVICE_SID: z
    .string()
    .regex(
      /^(MG\w{32}|\+?[1-9]\d{6,14})$/,
      'must be a Messaging Service SID (MG…) or an E.164 number',
    )
    .optional(),
  TWILIO_API_URL: urlFromEnv.default('https://api.twilio.com'),
  SMS_AUTOCONFIRM: booleanFromEnv.default(false),
  SMS_OTP_EXP: seconds.min(30).max(86_400).default(60),
  SMS_OTP_LENGTH: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(6, 'must be between 6 and 10')
    .max(10, 'must be between 6 and 10')
    .default(6),
  SMS_MAX_FREQUENCY: seconds.default(60),
  RATE_LIMIT_SMS_SENT: perWindow.default(30),
  // Realtime (STOMP over WebSocket at /wss): the bus between instances, heart-beats, timeouts.
  REALTIME_BUS_URL: z
    .string()
    .regex(/^(redis|rediss|nats):\/\/[^\s/]+/, 'must be a redis://, rediss:// or nats:// URL')
    .refine((value) => URL.canParse(value), 'must be a redis://, rediss:// or nats:// URL')
    .optional(),
  REALTIME_HEARTBEAT_MS: milliseconds.min(100, 'must be at least 100').default(20_000),
  REALTIME_CONNECT_TIMEOUT_MS: milliseconds.min(100, 'must be at least 100').default(5_000),
  REALTIME_IDLE_TIMEOUT_MS: milliseconds.min(200, 'must be at least 200').default(120_000),
  REALTIME_SLOW_CONSUMER_TIMEOUT_MS: milliseconds.min(100, 'must be at least 100').default(30_000),
  REALTIME_MAX_CONNECTIONS: perWindow.default(10_000),
  REALTIME_MAX_CONNECTIONS_PER_IP: perWindow.default(50),
  // Video meetings: ICE servers for the browsers' peer connections (STUN, and a TURN relay).
  STUN_URLS: iceUrlList(['stun', 'stuns']).optional(),
  TURN_URLS: iceUrlList(['turn', 'turns']).optional(),
  TURN_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  TURN_CREDENTIAL_TTL: seconds
    .min(60, 'must be at least 60 seconds')
    .max(86_400, 'must be at most 86400 seconds')
    .default(14_400),
  // Payments: Stripe Checkout when both keys are set; otherwise the built-in sandbox checkout
  // (never in production, where paid queues then answer payments_unavailable).
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_test_… or sk_live_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional(),
  /** Signs the sandbox's checkout ids and webhooks; derived from the auth key when unset. */
  SANDBOX_WEBHOOK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Another address for Stripe's API, e.g. a local stand-in; Stripe's own when unset. */
  STRIPE_API_URL: urlFromEnv.optional(),
});

/** One configured sign-in provider (see auth/oauth/providers.ts). */
export type OAuthProviderConfig = Readonly<
  | { kind: 'oidc'; name: string; label: string; issuer: string; clientId: string; secret: string }
  | {
      kind: 'github';
      name: 'github';
      label: string;
      webUrl: string;
      apiUrl: string;
      clientId: string;
      secret: string;
    }
>;

/** A provider needs its id and its secret (and the generic one an issuer): all or nothing. */
function oauthProviders(e: z.infer<typeof envSchema>): OAuthProviderConfig[] {
  const providers: OAuthProviderConfig[] = [];
  const pair = (prefix: string, id: string | undefined, secret: string | undefined) => {
    if (!id && !secret) return undefined;
    if (!id)
      throw new ConfigError(
        `Invalid configuration:\n  ${prefix}_CLIENT_ID: must be set with ${prefix}_SECRET`,
      );
    if (!secret)
      throw new ConfigError(
        `Invalid configuration:\n  ${prefix}_SECRET: must be set with ${prefix}_CLIENT_ID`,
      );
    return { clientId: id, secret };
  };
  const oidc = pair('EXTERNAL_OIDC', e.EXTERNAL_OIDC_CLIENT_ID, e.EXTERNAL_OIDC_SECRET);
  if (oidc && !e.EXTERNAL_OIDC_ISSUER) {
    throw new ConfigError(
      'Invalid configuration:\n  EXTERNAL_OIDC_ISSUER: must be set with EXTERNAL_OIDC_CLIENT_ID',
    );
  }
  if (oidc && e.EXTERNAL_OIDC_ISSUER) {
    // Exactly as the provider names itself (some issuers end with a slash).
    const issuer = e.EXTERNAL_OIDC_ISSUER;
    providers.push({ kind: 'oidc', name: 'oidc', label: e.EXTERNAL_OIDC_NAME, issuer, ...oidc });
  }
  const google = pair('EXTERNAL_GOOGLE', e.EXTERNAL_GOOGLE_CLIENT_ID, e.EXTERNAL_GOOGLE_SECRET);
  if (google) {
    providers.push({
      kind: 'oidc',
      name: 'google',
      label: 'Google',
      issuer: 'https://accounts.google.com',
      ...google,
    });
  }
  const github = pair('EXTERNAL_GITHUB', e.EXTERNAL_GITHUB_CLIENT_ID, e.EXTERNAL_GITHUB_SECRET);
  if (github) {
    providers.push({
      kind: 'github',
      name: 'github',
      label: 'GitHub',
      webUrl: e.EXTERNAL_GITHUB_URL.replace(/\/$/, ''),
      apiUrl: e.EXTERNAL_GITHUB_API_URL.replace(/\/$/, ''),
      ...github,
    });
  }
  return providers;
}

export type Config = Readonly<{
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  sentryDsn: string | undefined;
  corsOrigins: readonly string[];
  /** What Prometheus must send as its bearer token; /metrics is off when undefined. */
  metricsToken: string | undefined;
  trustProxy: boolean | string;
  /** Redis shared by every instance for rate limits and send quotas; memory when undefined. */
  redisUrl: string | undefined;
  seedDemoData: boolean;
  /** Demo owner and staff sign-ins with the documented password (never by default in production). */
  seedDemoAccounts: boolean;
  /** Mail kept locally is readable at /auth/v1/dev/mailbox. */
  devMailbox: boolean;
  /** Listens on loopback only and has no public address: a developer's own machine. */
  localOnly: boolean;
  shutdownTimeoutMs: number;
  webDistDir: string;
  version: string;
  auth: AuthConfig;
  realtime: RealtimeConfig;
  ice: IceConfig;
  payments: PaymentsConfig;
}>;

/** Which payment provider runs checkouts (modules/payments/providers.ts chooses from this). */
export type PaymentsConfig = Readonly<{
  /** Stripe Checkout, when both keys are set; null: the sandbox checkout (never in production). */
  stripe: StripeConfig | null;
  /** The sandbox checkout may run: never in production. */
  sandboxAllowed: boolean;
  /** SANDBOX_WEBHOOK_SECRET; when unset the server derives one from its auth signing key. */
  sandboxSecret: string | undefined;
}>;

/** Never logged, never sent to a browser: only the Stripe provider reads it. */
type StripeConfig = Readonly<{
  secretKey: string;
  webhookSecret: string;
  /** Stripe's API elsewhere (a local stand-in); Stripe's own when undefined. */
  apiUrl: string | undefined;
}>;

/** What browsers get for `new RTCPeerConnection({ iceServers })` in a meeting. */
export type IceConfig = Readonly<{
  stunUrls: readonly string[];
  /** coturn's REST scheme (`--use-auth-secret`): credentials are minted per user, short-lived. */
  turn: Readonly<{ urls: readonly string[]; secret: string; ttlSeconds: number }> | null;
}>;

export type RealtimeConfig = Readonly<{
  /** Redis or NATS carrying events between instances; none for a single instance. */
  busUrl: string | undefined;
  /** What the server offers and asks for in the STOMP heart-beat negotiation. */
  heartbeatMs: number;
  /** A socket that has not sent CONNECT by then is closed. */
  connectTimeoutMs: number;
  /** A connection from which nothing (not even a heart-beat) arrives for this long is closed. */
  idleTimeoutMs: number;
  /** A client that stays too far behind the messages sent to it for this long is closed. */
  slowConsumerTimeoutMs: number;
  /** Sockets open at once on this instance, in all and per client IP (0 = no limit). */
  maxConnections: number;
  maxConnectionsPerIp: number;
}>;

export type AuthConfig = Readonly<{
  /** Where users land after email links; redirects elsewhere must be on `uriAllowList`. */
  siteUrl: string;
  uriAllowList: readonly string[];
  /** Base URL of the auth API, used in email links and as the JWT issuer. */
  externalUrl: string;
  jwtIssuer: string;
  jwtExp: number;
  jwtAud: string;
  jwtSecret: string | undefined;
  jwtPrivateKey: string | undefined;
  /** A hosted Supabase Auth (`https://<project>.supabase.co/auth/v1`) whose tokens /api accepts too. */
  hostedAuthUrl: string | undefined;
  mailerAutoconfirm: boolean;
  mailerOtpExp: number;
  /** An email change needs confirming from the current address as well as the new one. */
  mailerSecureEmailChange: boolean;
  disableSignup: boolean;
  anonymousSignInsEnabled: boolean;
  /** Close GoTrue's residual account-enumeration leaks (e.g. otp_disabled for unknown users). */
  enumerationProtection: boolean;
  passwordMinLength: number;
  refreshTokenReuseInterval: number;
  /** A password change from a session older than 24 h needs a nonce from /reauthenticate. */
  updatePasswordRequireReauthentication: boolean;
  /** Seconds a session lives at most / may go without a refresh (0 = no limit). */
  sessionsTimebox: number;
  sessionsInactivityTimeout: number;
  smtpUrl: string | undefined;
  smtpFrom: string;
  smtpMaxFrequency: number;
  /**
   * Per-IP requests per 5 minutes (0 = off); failed password sign-ins per account and client IP
   * per 15 minutes; wrong codes per address and client IP per code lifetime; emails and SMS
   * per hour for all instances.
   */
  rateLimits: Readonly<{
    token: number;
    otp: number;
    verify: number;
    signInFailures: number;
    wrongCodes: number;
    emailSent: number;
    smsSent: number;
  }>;
  /** Enabled OAuth/OIDC sign-in providers. */
  oauthProviders: readonly OAuthProviderConfig[];
  /** `/user/identities/*` (link and unlink providers by hand); GoTrue's default is off. */
  manualLinkingEnabled: boolean;
  sms: SmsConfig;
  /** MFA: factors per user, challenge lifetime (s), challenges + verifications per IP per minute. */
  mfa: Readonly<{
    maxEnrolledFactors: number;
    challengeExpiry: number;
    rateLimit: number;
    phoneEnabled: boolean;
  }>;
  /**
   * The WebAuthn relying party (passkeys, WebAuthn factors): its id is PUBLIC_URL's host and
   * credentials are accepted from PUBLIC_URL's and SITE_URL's origins.
   */
  webauthn: Readonly<{
    rpId: string;
    rpName: string;
    origins: readonly string[];
    challengeExpiry: number;
    maxPasskeys: number;
  }>;
}>;

export type SmsConfig = Readonly<{
  /** null: no SMS provider (the developer mailbox outside production; phone auth off in it). */
  provider: 'twilio' | null;
  twilio: Readonly<{
    accountSid: string;
    authToken: string;
    /** A Messaging Service SID (MG…) or the sender's number. */
    messageServiceSid: string;
    apiUrl: string;
  }> | null;
  autoconfirm: boolean;
  otpExp: number;
  otpLength: number;
  maxFrequency: number;
}>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set": `PORT= npm start` should not fail on "".
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      // A malformed secret is named, never echoed: the message ends up in logs.
      const secret = /SECRET|TOKEN|PRIVATE_KEY/.test(name);
      const got = name in present && !secret ? ` (got "${present[name]}")` : '';
      return `  ${name}: ${issue.message}${got}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.SMS_PROVIDER === 'twilio') {
    const missing = (
      ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_MESSAGE_SERVICE_SID'] as const
    )
      .filter((name) => !e[name])
      .map((name) => `  ${name}: is required when SMS_PROVIDER=twilio`);
    if (missing.length > 0) {
      throw new ConfigError(`Invalid configuration:\n${missing.join('\n')}`);
    }
  } else if (e.TWILIO_ACCOUNT_SID || e.TWILIO_AUTH_TOKEN || e.TWILIO_MESSAGE_SERVICE_SID) {
    throw new ConfigError(
      'Invalid configuration:\n  SMS_PROVIDER: must be twilio when TWILIO_* variables are set',
    );
  }
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      e.STRIPE_SECRET_KEY
        ? 'Invalid configuration:\n  STRIPE_WEBHOOK_SECRET: must be set with STRIPE_SECRET_KEY'
        : 'Invalid configuration:\n  STRIPE_SECRET_KEY: must be set with STRIPE_WEBHOOK_SECRET',
    );
  }
  // A client beating as often as the server asks must never look idle.
  if (e.REALTIME_IDLE_TIMEOUT_MS < 2 * e.REALTIME_HEARTBEAT_MS) {
    throw new ConfigError(
      `Invalid configuration:\n  REALTIME_IDLE_TIMEOUT_MS: must be at least twice REALTIME_HEARTBEAT_MS (${2 * e.REALTIME_HEARTBEAT_MS})`,
    );
  }
  if (Boolean(e.TURN_URLS?.length) !== Boolean(e.TURN_SECRET)) {
    throw new ConfigError(
      e.TURN_SECRET
        ? 'Invalid configuration:\n  TURN_URLS: must be set with TURN_SECRET'
        : 'Invalid configuration:\n  TURN_SECRET: must be set with TURN_URLS',
    );
  }
  // Developer conveniences (demo sign-ins with a known password, the mailbox that shows every
  // mail's links) are on by default only for a server nobody else can reach.
  const localOnly =
    isLoopbackHost(e.HOST) && (!e.PUBLIC_URL || isLoopbackHost(new URL(e.PUBLIC_URL).hostname));
  const conveniences = e.NODE_ENV !== 'production' && localOnly;
  const displayHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  const publicUrl = (e.PUBLIC_URL ?? `http://${displayHost}:${e.PORT}`).replace(/\/$/, '');
  const authUrl = `${publicUrl}/auth/v1`;
  return Object.freeze({
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    sentryDsn: e.SENTRY_DSN,
    metricsToken: e.METRICS_TOKEN,
    corsOrigins: Object.freeze(e.CORS_ORIGINS),
    trustProxy: e.TRUST_PROXY,
    redisUrl: e.REDIS_URL,
    seedDemoData: e.SEED_DEMO_DATA,
    seedDemoAccounts: e.SEED_DEMO_ACCOUNTS ?? conveniences,
    devMailbox: e.DEV_MAILBOX ?? conveniences,
    localOnly,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    webDistDir: resolve(import.meta.dirname, '../../web/dist'),
    version: serverPackage.version,
    auth: Object.freeze({
      siteUrl: (e.SITE_URL ?? publicUrl).replace(/\/$/, ''),
      uriAllowList: Object.freeze(e.URI_ALLOW_LIST),
      externalUrl: authUrl,
      jwtIssuer: e.JWT_ISSUER ?? authUrl,
      jwtExp: e.JWT_EXP,
      jwtAud: e.JWT_AUD,
      jwtSecret: e.JWT_SECRET,
      jwtPrivateKey: e.JWT_PRIVATE_KEY,
      hostedAuthUrl: e.HOSTED_AUTH_URL?.replace(/\/$/, ''),
      mailerAutoconfirm: e.MAILER_AUTOCONFIRM,
      mailerOtpExp: e.MAILER_OTP_EXP,
      mailerSecureEmailChange: e.MAILER_SECURE_EMAIL_CHANGE_ENABLED,
      disableSignup: e.DISABLE_SIGNUP,
      anonymousSignInsEnabled: e.ANONYMOUS_SIGN_INS_ENABLED,
      enumerationProtection: e.ENUMERATION_PROTECTION,
      passwordMinLength: e.PASSWORD_MIN_LENGTH,
      refreshTokenReuseInterval: e.REFRESH_TOKEN_REUSE_INTERVAL,
      updatePasswordRequireReauthentication: e.UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION,
      sessionsTimebox: e.SESSIONS_TIMEBOX,
      sessionsInactivityTimeout: e.SESSIONS_INACTIVITY_TIMEOUT,
      smtpUrl: e.SMTP_URL,
      smtpFrom: e.SMTP_FROM ?? `UpNext <no-reply@${new URL(publicUrl).hostname}>`,
      smtpMaxFrequency: e.SMTP_MAX_FREQUENCY,
      rateLimits: Object.freeze({
        token: e.RATE_LIMIT_TOKEN,
        otp: e.RATE_LIMIT_OTP,
        verify: e.RATE_LIMIT_VERIFY,
        signInFailures: e.RATE_LIMIT_SIGNIN_FAILURES,
        wrongCodes: e.RATE_LIMIT_WRONG_CODES,
        emailSent: e.RATE_LIMIT_EMAIL_SENT,
        smsSent: e.RATE_LIMIT_SMS_SENT,
      }),
      sms: Object.freeze({
        provider: e.SMS_PROVIDER ?? null,
        twilio:
          e.SMS_PROVIDER === 'twilio' &&
          e.TWILIO_ACCOUNT_SID &&
          e.TWILIO_AUTH_TOKEN &&
          e.TWILIO_MESSAGE_SERVICE_SID
            ? Object.freeze({
                accountSid: e.TWILIO_ACCOUNT_SID,
                authToken: e.TWILIO_AUTH_TOKEN,
                messageServiceSid: e.TWILIO_MESSAGE_SERVICE_SID,
                apiUrl: e.TWILIO_API_URL.replace(/\/$/, ''),
              })
            : null,
        autoconfirm: e.SMS_AUTOCONFIRM,
        otpExp: e.SMS_OTP_EXP,
        otpLength: e.SMS_OTP_LENGTH,
        maxFrequency: e.SMS_MAX_FREQUENCY,
      }),
      mfa: Object.freeze({
        maxEnrolledFactors: e.MFA_MAX_ENROLLED_FACTORS,
        challengeExpiry: e.MFA_CHALLENGE_EXPIRY_DURATION,
        rateLimit: e.RATE_LIMIT_MFA,
        phoneEnabled: e.MFA_PHONE_ENROLL_ENABLED,
      }),
      webauthn: Object.freeze({
        rpId: new URL(publicUrl).hostname,
        rpName: 'UpNext',
        origins: Object.freeze([
          ...new Set([new URL(publicUrl).origin, new URL(e.SITE_URL ?? publicUrl).origin]),
        ]),
        challengeExpiry: e.WEBAUTHN_CHALLENGE_EXPIRY_DURATION,
        // GoTrue's GOTRUE_PASSKEY_MAX_PASSKEYS_PER_USER default.
        maxPasskeys: 10,
      }),
      oauthProviders: Object.freeze(oauthProviders(e)),
      manualLinkingEnabled: e.SECURITY_MANUAL_LINKING_ENABLED,
    }),
    realtime: Object.freeze({
      busUrl: e.REALTIME_BUS_URL,
      heartbeatMs: e.REALTIME_HEARTBEAT_MS,
      connectTimeoutMs: e.REALTIME_CONNECT_TIMEOUT_MS,
      idleTimeoutMs: e.REALTIME_IDLE_TIMEOUT_MS,
      slowConsumerTimeoutMs: e.REALTIME_SLOW_CONSUMER_TIMEOUT_MS,
      maxConnections: e.REALTIME_MAX_CONNECTIONS,
      maxConnectionsPerIp: e.REALTIME_MAX_CONNECTIONS_PER_IP,
    }),
    ice: Object.freeze({
      stunUrls: Object.freeze(e.STUN_URLS ?? []),
      turn:
        e.TURN_URLS?.length && e.TURN_SECRET
          ? Object.freeze({
              urls: Object.freeze(e.TURN_URLS),
              secret: e.TURN_SECRET,
              ttlSeconds: e.TURN_CREDENTIAL_TTL,
            })
          : null,
    }),
    payments: Object.freeze({
      stripe:
        e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
          ? Object.freeze({
              secretKey: e.STRIPE_SECRET_KEY,
              webhookSecret: e.STRIPE_WEBHOOK_SECRET,
              apiUrl: e.STRIPE_API_URL,
            })
          : null,
      sandboxAllowed: e.NODE_ENV !== 'production',
      sandboxSecret: e.SANDBOX_WEBHOOK_SECRET,
    }),
  });
}
