/**
 * The OpenID Connect provider the OAuth journey signs in with: the same local `oidc-provider`
 * the server's tests use (no login page; it signs in the account below), on a fixed loopback
 * port, started by playwright.config.ts before the app server that is configured to use it.
 */
import { startTestOidcProvider } from '../apps/server/src/auth/oauth/test-provider.ts';

const port = Number(process.env.E2E_OIDC_PORT);
const appOrigin = process.env.E2E_APP_ORIGIN as string;
await startTestOidcProvider({
  port,
  clientSecret: process.env.E2E_OIDC_SECRET as string,
  redirectUris: [`${appOrigin}/auth/v1/callback`],
  account: {
    sub: 'e2e-oidc-visitor',
    email: 'sso.visitor@example.test',
    email_verified: true,
    name: 'Sam Single-Sign-On',
  },
});
console.log(`test OIDC provider on http://127.0.0.1:${port}`);
