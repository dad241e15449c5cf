import { buildApp } from '../app.ts';
import { type AuthKeys, ephemeralKeys } from '../auth/keys.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import type { EventPublisher } from '../lib/events.ts';
import { createLifecycle } from '../lib/lifecycle.ts';
import type { CallAuthorizer } from '../realtime/realtime.policy.ts';

/** The real app over a test database, quiet, with no built web app unless one is given. */
export async function buildTestApp(
  database: Database,
  env: Record<string, string> = {},
  overrides: {
    webDistDir?: string;
    clock?: Clock;
    publisher?: EventPublisher;
    keys?: AuthKeys;
    authorizeCall?: CallAuthorizer;
  } = {},
) {
  const config = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }),
    webDistDir: overrides.webDistDir ?? '/nonexistent-web-dist',
  };
  const lifecycle = createLifecycle();
  lifecycle.ready = true;
  const keys = overrides.keys ?? ephemeralKeys(config.auth.jwtSecret);
  const app = await buildApp({
    config,
    database,
    lifecycle,
    authKeys: keys,
    ...(overrides.clock ? { clock: overrides.clock } : {}),
    ...(overrides.publisher ? { publisher: overrides.publisher } : {}),
    ...(overrides.authorizeCall ? { authorizeCall: overrides.authorizeCall } : {}),
  });
  return { app, config, lifecycle, keys, database };
}

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>;
