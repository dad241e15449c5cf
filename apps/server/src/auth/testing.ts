import { createServer } from 'node:net';
import { AuthClient } from '@supabase/auth-js';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createLifecycle } from '../lib/lifecycle.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { apiKey } from './admin.ts';
import { ephemeralKeys } from './keys.ts';

/** A free loopback port, so PUBLIC_URL (and the links in emails) can name it up front. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export type MailboxMessage = {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: string;
};

/**
 * The real app, listening on loopback, over a fresh database of the given driver, with an
 * in-memory signing key. Rate limits and the send interval are off unless `env` sets them.
 */
export async function startAuthServer(
  driver: 'pglite' | 'postgres',
  env: Record<string, string> = {},
  options: { logger?: FastifyBaseLogger; port?: number } = {},
) {
  const database: TestDatabase = await createTestDatabase(driver);
  // Chosen by the caller when something must know the URL first (an OAuth provider's redirect).
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = {
    ...loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      SEED_DEMO_DATA: 'false',
      RATE_LIMIT_TOKEN: '0',
      RATE_LIMIT_OTP: '0',
      RATE_LIMIT_VERIFY: '0',
      RATE_LIMIT_MFA: '0',
      RATE_LIMIT_EMAIL_SENT: '0',
      SMTP_MAX_FREQUENCY: '0',
      SMS_MAX_FREQUENCY: '0',
      RATE_LIMIT_SMS_SENT: '0',
      ...env,
    }),
    webDistDir: '/nonexistent-web-dist',
  };
  const lifecycle = createLifecycle();
  lifecycle.ready = true;
  const authKeys = ephemeralKeys(config.auth.jwtSecret);
  const serviceRoleKey = await apiKey(authKeys, config.auth, 'service_role');
  const anonKey = await apiKey(authKeys, config.auth, 'anon');
  const app = await buildApp({
    config,
    database,
    lifecycle,
    authKeys,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  await app.listen({ host: '127.0.0.1', port });
  const authUrl = `${baseUrl}/auth/v1`;

  async function mailbox(to: string): Promise<MailboxMessage[]> {
    const response = await fetch(`${authUrl}/dev/mailbox?to=${encodeURIComponent(to)}`);
    if (!response.ok) throw new Error(`mailbox answered ${response.status}`);
    return ((await response.json()) as { messages: MailboxMessage[] }).messages;
  }

  /** The newest message to `to`, with its 6-digit code and its link. */
  async function lastMail(to: string) {
    const [message] = await mailbox(to);
    if (!message) throw new Error(`no mail for ${to}`);
    const code = /code: (\d{6})/.exec(message.text)?.[1];
    const link = /(http:\/\/\S+\/auth\/v1\/verify\?\S+)/.exec(message.text)?.[1];
    return { ...message, code, link };
  }

  /** The newest SMS to `phone` (any form), with its code. */
  async function lastSms(phone: string) {
    const [message] = await mailbox(phone);
    if (!message) throw new Error(`no SMS for ${phone}`);
    const code = /(\d{6,10}) is your/.exec(message.text)?.[1];
    return { ...message, code };
  }

  /** The official client, unmodified, with an in-memory storage. */
  function client(options: { flowType?: 'implicit' | 'pkce' } = {}) {
    const store = new Map<string, string>();
    return new AuthClient({
      url: authUrl,
      storage: {
        getItem: (key) => store.get(key) ?? null,
        setItem: (key, value) => {
          store.set(key, value);
        },
        removeItem: (key) => {
          store.delete(key);
        },
      },
      autoRefreshToken: false,
      persistSession: true,
      detectSessionInUrl: false,
      ...options,
    });
  }

  /** The admin API as a server uses it: auth-js with the service-role key. */
  function admin() {
    return new AuthClient({
      url: authUrl,
      headers: { Authorization: `Bearer ${serviceRoleKey}`, apikey: serviceRoleKey },
      autoRefreshToken: false,
      persistSession: false,
      detectSessionInUrl: false,
    }).admin;
  }

  return {
    app,
    config,
    authKeys,
    serviceRoleKey,
    anonKey,
    admin,
    database,
    db: database.db,
    baseUrl,
    authUrl,
    mailbox,
    lastMail,
    lastSms,
    client,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

export type AuthServer = Awaited<ReturnType<typeof startAuthServer>>;

let counter = 0;
/** A unique address per call, so tests sharing a server never collide. */
export function uniqueEmail(prefix = 'user'): string {
  counter++;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}

let phoneCounter = 0;
/** A unique E.164 number per call (German mobile range), as `+49…`. */
export function uniquePhone(): string {
  phoneCounter++;
  const tail = `${Date.now() % 1_000_000}${String(phoneCounter).padStart(3, '0')}`;
  return `+49151${tail.padStart(9, '0').slice(-9)}`;
}
