import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/**
 * A REAL OpenID Connect provider for tests (the npm `oidc-provider` package), on a free
 * loopback port. There is no login page: whoever reaches its interaction step is signed in
 * as the account chosen with `signInAs`, and consent is implied, so a test's HTTP client or
 * Playwright's browser can follow the redirects unattended. Each authorization starts
 * without a provider session, so switching accounts needs no cookie clearing.
 *
 * Used by the server's integration tests and by the Playwright specs, e.g.:
 *
 *   const oidc = await startTestOidcProvider({ redirectUris: [`${origin}/auth/v1/callback`] });
 *   // start the server with EXTERNAL_OIDC_ISSUER=oidc.issuer,
 *   //   EXTERNAL_OIDC_CLIENT_ID=oidc.client.clientId, EXTERNAL_OIDC_SECRET=oidc.client.clientSecret
 *   oidc.signInAs({ sub: 'alice', email: 'alice@example.com', email_verified: true });
 *   // click "Sign in with ..." (signInWithOAuth({ provider: 'oidc' })): the browser comes back signed in
 *   await oidc.stop();
 *
 * Checked in Chromium too: the provider's cookies are SameSite=Lax, fine over loopback http.
 */

export type TestAccount = {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
};

type TestClient = { clientId: string; clientSecret: string };

export type TestOidcProvider = {
  /** The issuer URL (EXTERNAL_OIDC_ISSUER); discovery at `${issuer}/.well-known/openid-configuration`. */
  issuer: string;
  /** The client our server is configured with (EXTERNAL_OIDC_CLIENT_ID / _SECRET). */
  client: TestClient;
  /** A second registered client: its tokens carry another audience. */
  otherClient: TestClient;
  /** Adds (or replaces) an account and makes it the one that signs in next. */
  signInAs: (account: TestAccount) => void;
  /** The id_token this provider issues `client` (or `otherClient`) for the current account. */
  obtainIdToken: (options: { nonce?: string; client?: TestClient }) => Promise<string>;
  stop: () => Promise<void>;
};

export async function startTestOidcProvider(options: {
  /** Where the provider may send the browser back to, e.g. `${authUrl}/callback`. */
  redirectUris: string[];
  account?: TestAccount;
  host?: string;
  /** Fixed port and client secret, for a provider started before the server it serves (e2e). */
  port?: number;
  clientSecret?: string;
}): Promise<TestOidcProvider> {
  const host = options.host ?? '127.0.0.1';
  const accounts = new Map<string, TestAccount>();
  let current: TestAccount = options.account ?? {
    sub: 'alice',
    email: 'alice@example.com',
    email_verified: true,
    name: 'Alice Example',
  };
  accounts.set(current.sub, current);

  const client: TestClient = {
    clientId: 'upnext',
    clientSecret: options.clientSecret ?? randomBytes(24).toString('hex'),
  };
  const otherClient: TestClient = {
    clientId: 'another-app',
    clientSecret: randomBytes(24).toString('hex'),
  };
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = {
    ...(await exportJWK(privateKey)),
    kid: 'test-key',
    alg: 'RS256',
    use: 'sig',
  };

  const server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://${host}:${port}`;

  const clientMetadata = (c: TestClient) => ({
    client_id: c.clientId,
    client_secret: c.clientSecret,
    redirect_uris: options.redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
  });

  const provider = new Provider(issuer, {
    clients: [clientMetadata(client), clientMetadata(otherClient)],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'picture'],
    },
    // The claims go into the id_token itself, as Google's and most providers' do.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    // Consent is implied: every client gets the OpenID scopes it asks for.
    loadExistingGrant: async (ctx: {
      oidc: {
        provider: { Grant: new (init: Record<string, string>) => Grant };
        client: { clientId: string };
        session: { accountId: string };
      };
    }) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    findAccount: async (_ctx: unknown, id: string) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => {
          const { sub, ...claims } = account;
          return { sub, ...claims };
        },
      };
    },
    pkce: { required: () => false },
    ttl: {
      Interaction: 600,
      Session: 600,
      Grant: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      AccessToken: 600,
    },
  });

  const handle = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?', 1)[0] as string;
    if (path.startsWith('/interaction/')) {
      provider
        .interactionDetails(req, res)
        .then(() =>
          provider.interactionFinished(
            req,
            res,
            { login: { accountId: current.sub } },
            { mergeWithLastSubmission: false },
          ),
        )
        .catch((error: unknown) => {
          res.statusCode = 400;
          res.end(error instanceof Error ? error.message : 'interaction failed');
        });
      return;
    }
    if (path === '/auth') {
      // No provider session carried over: the chosen account signs in every time.
      req.headers.cookie = (req.headers.cookie ?? '')
        .split(/;\s*/)
        .filter((cookie) => cookie && !cookie.startsWith('_session'))
        .join('; ');
    }
    handle(req, res);
  });

  async function obtainIdToken({
    nonce,
    client: who = client,
  }: {
    nonce?: string;
    client?: TestClient;
  }) {
    const redirectUri = options.redirectUris[0] as string;
    const query = new URLSearchParams({
      client_id: who.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      state: randomBytes(8).toString('hex'),
      ...(nonce ? { nonce } : {}),
    });
    const landed = await followRedirects(`${issuer}/auth?${query}`, {
      stopAt: (url) => url.startsWith(redirectUri),
    });
    const code = new URL(landed.url).searchParams.get('code');
    if (!code) throw new Error(`the test provider issued no code (landed on ${landed.url})`);
    const response = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${who.clientId}:${who.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
      }),
    });
    const json = (await response.json()) as { id_token?: string; error?: string };
    if (!json.id_token) throw new Error(`the test provider issued no id_token (${json.error})`);
    return json.id_token;
  }

  return {
    issuer,
    client,
    otherClient,
    signInAs: (account) => {
      accounts.set(account.sub, account);
      current = account;
    },
    obtainIdToken,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Grant = { addOIDCScope: (scope: string) => void; save: () => Promise<string> };

/**
 * A minimal browser for tests: follows redirects by hand, keeping cookies per host, and
 * stops at `stopAt`, at a URL it cannot fetch (another scheme, a non-loopback host), or at
 * the first answer that is not a redirect.
 */
export async function followRedirects(
  start: string,
  options: { stopAt?: (url: string) => boolean; jar?: Map<string, Map<string, string>> } = {},
): Promise<{ url: string; status: number | null; hops: string[] }> {
  const jar = options.jar ?? new Map<string, Map<string, string>>();
  const hops: string[] = [];
  let url = start;
  for (let i = 0; i < 25; i++) {
    hops.push(url);
    if (options.stopAt?.(url)) return { url, status: null, hops };
    const parsed = new URL(url);
    const loopback = parsed.hostname === '127.0.0.1' || parsed.hostname === 'localhost';
    if (parsed.protocol !== 'http:' || !loopback) return { url, status: null, hops };
    const cookies = jar.get(parsed.host) ?? new Map<string, string>();
    const response = await fetch(url, {
      redirect: 'manual',
      headers: cookies.size
        ? { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') }
        : {},
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';', 1) as [string];
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    jar.set(parsed.host, cookies);
    const location = response.headers.get('location');
    await response.body?.cancel();
    if (response.status < 300 || response.status >= 400 || !location) {
      return { url, status: response.status, hops };
    }
    url = new URL(location, url).toString();
  }
  throw new Error(`too many redirects from ${start}`);
}
