import { buildApp } from '../apps/server/src/app.ts';
import { ephemeralKeys } from '../apps/server/src/auth/keys.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { Database } from '../apps/server/src/db/client.ts';
import { createLifecycle } from '../apps/server/src/lib/lifecycle.ts';
import { createLiveSession } from '../apps/server/src/test/live-session.ts';

/**
 * What the token benchmarks issue into (tokens-server.ts, tokens-trace.ts): the real app
 * over `database`, migrated, with one open session of large capacity and its owner signed in.
 */
export async function appWithLiveSession(database: Database) {
  const config = {
    ...loadConfig({
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: '0',
      SEED_DEMO_DATA: 'false',
    }),
    webDistDir: '/nonexistent',
  };
  await database.migrate();
  const keys = ephemeralKeys();
  const lifecycle = createLifecycle();
  lifecycle.ready = true;
  const app = await buildApp({ config, database, lifecycle, authKeys: keys });
  const harness = { database, keys, config, app, lifecycle };
  const live = await createLiveSession(harness as Parameters<typeof createLiveSession>[0], {
    capacity: 100_000,
  });
  return { app, live };
}
