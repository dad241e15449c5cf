import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { callFlags, chromiumPath, headlessFlags } from './chromium.ts';

const root = resolve(import.meta.dirname, '..');
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
// The local OpenID Connect provider of the OAuth journey (e2e/oidc-provider.ts).
const oidcPort = port + 1;
const oidcIssuer = `http://127.0.0.1:${oidcPort}`;
const oidcSecret = 'e2e-only-oidc-client-secret';
const nodeBin = join(root, 'node_modules/.bin/node');

// The TURN relay of the call tests: the server hands out credentials for coturn on this UDP
// port with this secret (TURN_URLS/TURN_SECRET, as in production); the TURN test starts that
// coturn itself (tests/calls/turn.spec.ts). Without it running, relay candidates simply fail.
process.env.E2E_TURN_PORT ??= String(port + 2);
process.env.E2E_TURN_SECRET ??= `e2e-turn-${randomBytes(12).toString('hex')}`;

// A fresh database per run. Set once in the runner process; workers inherit the variable and
// re-evaluate this file without creating directories of their own.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'upnext-e2e-'));

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: chromiumPath(), args: headlessFlags },
  },
  projects: [
    { name: 'chromium', testIgnore: 'calls/**', use: { browserName: 'chromium' } },
    {
      name: 'calls',
      testMatch: 'calls/**/*.spec.ts',
      use: {
        browserName: 'chromium',
        launchOptions: { executablePath: chromiumPath(), args: [...headlessFlags, ...callFlags] },
      },
    },
  ],
  webServer: [
    {
      command: `${nodeBin} oidc-provider.ts`,
      cwd: import.meta.dirname,
      url: `${oidcIssuer}/.well-known/openid-configuration`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
      env: {
        E2E_OIDC_PORT: String(oidcPort),
        E2E_OIDC_SECRET: oidcSecret,
        E2E_APP_ORIGIN: baseURL,
      },
    },
    // The real server, serving the built app (`npm run test:e2e` builds it first).
    {
      command: `${nodeBin} ../apps/server/src/server.ts`,
      cwd: import.meta.dirname,
      url: `${baseURL}/api/ready`,
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
        PORT: String(port),
        DATA_DIR: process.env.E2E_DATA_DIR,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        // Journeys mail one address several times within a minute (sign-up, then a reset link).
        SMTP_MAX_FREQUENCY: '0',
        // The journeys sign up more people in an hour than the instance-wide default of 30
        // auth emails (the limit itself is tested in apps/server/src/auth/limits.int.test.ts).
        RATE_LIMIT_EMAIL_SENT: '1000',
        // Every journey signs its people up, verifies and signs them in from this one address,
        // more than the per-IP defaults allow within their window; the limits themselves are
        // tested in auth/limits.int.test.ts.
        RATE_LIMIT_OTP: '1000',
        RATE_LIMIT_VERIFY: '1000',
        RATE_LIMIT_TOKEN: '1000',
        EXTERNAL_OIDC_ISSUER: oidcIssuer,
        EXTERNAL_OIDC_CLIENT_ID: 'upnext',
        EXTERNAL_OIDC_SECRET: oidcSecret,
        EXTERNAL_OIDC_NAME: 'Harbour SSO',
        TURN_URLS: `turn:127.0.0.1:${process.env.E2E_TURN_PORT}?transport=udp`,
        TURN_SECRET: process.env.E2E_TURN_SECRET,
      },
    },
  ],
});
