import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { createLifecycle } from '../lib/lifecycle.ts';

/** The real app over a test database, quiet, with no built web app unless one is given. */
export async function buildTestApp(
  database: Database,
  env: Record<string, string> = {},
  overrides: { webDistDir?: string } = {},
) {
  const config = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }),
    webDistDir: overrides.webDistDir ?? '/nonexistent-web-dist',
  };
  const lifecycle = createLifecycle();
  lifecycle.ready = true;
  const app = await buildApp({ config, database, lifecycle });
  return { app, config, lifecycle };
}
