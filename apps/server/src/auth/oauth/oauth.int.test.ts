import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFlowStates, authIdentities, authUsers } from '../../db/schema/auth.ts';
import { authOAuthStates } from '../../db/schema/auth-oauth.ts';
import { testDrivers } from '../../test/database.ts';
import { type AuthServer, freePort, startAuthServer, uniqueEmail } from '../testing.ts';
import { startFakeGitHub } from './fake-github.ts';
import { followRedirects, startTestOidcProvider, type TestOidcProvider } from './test-provider.ts';

const PASSWORD = 'correct horse battery';
const APP = 'https://app.example.com';
const SITE = 'https://site.example.com';
const NATIVE = 'com.example.app://callback';
const HEADERS = {
  'content-type': 'application/json;charset=UTF-8',
  'x-supabase-api-version': '2024-01-01',
};

const fragment = (url: string) => new URLSearchParams(new URL(url).hash.slice(1));
const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

describe.each(testDrivers)('OAuth and OpenID Connect sign-in (%s)', (driver) => {
  let server: AuthServer;
  let oidc: TestOidcProvider;
  let github: Awaited<ReturnType<typeof startFakeGitHub>>;
  let counter = 0;
  /** A fresh provider account (subject and, unless told otherwise, a verified email). */
  const account = (overrides: { email?: string; email_verified?: boolean } = {}) => {
    counter++;
    const sub = `sub-${Date.now().toString(36)}-${counter}`;
    const next = {
      sub,
      email: overrides.email ?? uniqueEmail('oidc'),
      email_verified: overrides.email_verified ?? true,
      name: `Person ${counter}`,
    };
    oidc.signInAs(next);
    return next;
  };

  beforeAll(async () => {
    const port = await freePort();
    const callback = `http://127.0.0.1:${port}/auth/v1/callback`;
    oidc = await startTestOidcProvider({ redirectUris: [callback] });
    github = await startFakeGitHub({ clientId: 'gh-client', clientSecret: 'gh-secret' });
    server = await startAuthServer(
      driver,
      {
        SITE_URL: SITE,
        URI_ALLOW_LIST: `${APP}/**,${NATIVE}`,
        EXTERNAL_OIDC_ISSUER: oidc.issuer,
        EXTERNAL_OIDC_CLIENT_ID: oidc.client.clientId,
        EXTERNAL_OIDC_SECRET: oidc.client.clientSecret,
        EXTERNAL_OIDC_NAME: 'Test SSO',
        EXTERNAL_GITHUB_CLIENT_ID: 'gh-client',
        EXTERNAL_GITHUB_SECRET: 'gh-secret',
        EXTERNAL_GITHUB_URL: github.url,
        EXTERNAL_GITHUB_API_URL: github.url,
        SECURITY_MANUAL_LINKING_ENABLED: 'true',
        ANONYMOUS_SIGN_INS_ENABLED: 'true',
      },
      { port },
    );
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await oidc?.stop();
    await github?.stop();
  });

  /** The browser's trip: our /authorize, the provider, our /callback, the app. */
  async function signIn(url: string) {
    const landed = await followRedirects(url);
    return landed.url;
  }

  async function emailUser(email: string, confirm = true) {
    const client = server.client();
    const { data, error } = await client.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    if (confirm) {
      const { code } = await server.lastMail(email);
      const verified = await client.verifyOtp({ email, token: code as string, type: 'signup' });
      expect(verified.error).toBeNull();
    }
    return data.user?.id as string;
  }

  async function identitiesOf(userId: string) {
    return server.db.select().from(authIdentities).where(eq(authIdentities.userId, userId));
  }

  it('lists the enabled providers in /settings', async () => {
    const settings = (await (await fetch(`${server.authUrl}/settings`)).json()) as {
      external: Record<string, boolean>;
      external_labels: Record<string, string>;
    };
    expect(settings.external).toMatchObject({
      oidc: true,
      github: true,
      google: false,
      email: true,
    });
    expect(settings.external_labels).toEqual({ oidc: 'Test SSO', github: 'GitHub' });
  });

  it('signs a new user in with the implicit flow: tokens in the fragment, a verified email, one identity', async () => {
    const person = account();
    const client = server.client({ flowType: 'implicit' });
    const { data, error } = await client.signInWithOAuth({
      provider: 'oidc' as never,
      options: { redirectTo: `${APP}/welcome`, skipBrowserRedirect: true },
    });
    expect(error).toBeNull();
    const landed = await signIn(data.url as string);
    expect(landed.startsWith(`${APP}/welcome#`)).toBe(true);
    const params = fragment(landed);
    expect(params.get('token_type')).toBe('bearer');
    expect(params.get('provider_token')).toEqual(expect.any(String));
    const session = await client.setSession({
      access_token: params.get('access_token') as string,
      refresh_token: params.get('refresh_token') as string,
    });
    expect(session.error).toBeNull();
    const user = session.data.user;
    expect(user?.email).toBe(person.email);
    expect(user?.email_confirmed_at).toEqual(expect.any(String));
    expect(user?.app_metadata).toMatchObject({ provider: 'oidc', providers: ['oidc'] });
    expect(user?.user_metadata).toMatchObject({ name: person.name, email: person.email });
    expect(user?.identities).toHaveLength(1);
    expect(user?.identities?.[0]).toMatchObject({ provider: 'oidc', id: person.sub });

    // The same person again: the same user, no second identity.
    const again = await client.signInWithOAuth({
      provider: 'oidc' as never,
      options: { redirectTo: `${APP}/welcome`, skipBrowserRedirect: true },
    });
    const second = fragment(await signIn(again.data.url as string));
    const me = await client.getUser(second.get('access_token') as string);
    expect(me.data.user?.id).toBe(user?.id);
    expect(await identitiesOf(user?.id as string)).toHaveLength(1);
  });

  it('signs in with PKCE: only a code comes back, and auth-js exchanges it', async () => {
    const person = account();
    const client = server.client({ flowType: 'pkce' });
    const { data } = await client.signInWithOAuth({
      provider: 'oidc' as never,
      options: { redirectTo: `${APP}/auth/done`, skipBrowserRedirect: true },
    });
    const authorize = new URL(data.url as string);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('s256');
    const landed = new URL(await signIn(data.url as string));
    expect(landed.origin + landed.pathname).toBe(`${APP}/auth/done`);
    expect(landed.hash).toBe('');
    const code = landed.searchParams.get('code') as string;
    expect(code).toEqual(expect.any(String));
    const exchanged = await client.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(person.email);
    expect(exchanged.data.session?.user.identities?.[0]?.provider).toBe('oidc');
    // The provider's access token comes with the exchange; the database held it sealed.
    expect(exchanged.data.session?.provider_token).toEqual(expect.any(String));
    // Single use.
    const again = await fetch(`${server.authUrl}/token?grant_type=pkce`, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(43) }),
    });
    expect(again.status).toBe(404);
  });

  it('brings a native app back to its custom scheme on the allow-list, and the code exchanges', async () => {
    const person = account();
    const client = server.client({ flowType: 'pkce' });
    const { data } = await client.signInWithOAuth({
      provider: 'oidc' as never,
      options: { redirectTo: NATIVE, skipBrowserRedirect: true },
    });
    const landed = await signIn(data.url as string);
    expect(landed.startsWith(`${NATIVE}?code=`)).toBe(true);
    const code = new URLSearchParams(landed.split('?')[1]).get('code') as string;
    const exchanged = await client.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(person.email);
  });

  it('sends a redirect_to that is not on the allow-list to SITE_URL instead', async () => {
    account();
    const client = server.client({ flowType: 'implicit' });
    for (const target of ['https://evil.example.net/steal', 'com.evil.app://callback']) {
      const { data } = await client.signInWithOAuth({
        provider: 'oidc' as never,
        options: { redirectTo: target, skipBrowserRedirect: true },
      });
      const landed = new URL(await signIn(data.url as string));
      expect(landed.origin).toBe(SITE);
      expect(fragment(landed.toString()).get('access_token')).toEqual(expect.any(String));
    }
  });

  it('links to an existing account when the provider has verified the email', async () => {
    const email = uniqueEmail('verified');
    const userId = await emailUser(email);
    account({ email, email_verified: true });
    const client = server.client({ flowType: 'implicit' });
    const { data } = await client.signInWithOAuth({
      provider: 'oidc' as never,
      options: { redirectTo: APP, skipBrowserRedirect: true },
    });
    const params = fragment(await signIn(data.url as string));
    const me = await client.getUser(params.get('access_token') as string);
    expect(me.data.user?.id).toBe(userId);
    expect(me.data.user?.app_metadata.providers).toEqual(['email', 'oidc']);
    expect((await identitiesOf(userId)).map((row) => row.provider).sort()).toEqual([
      'email',
      'oidc',
    ]);
    // The password still works: the account was confirmed before.
    expect((await client.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  });

  it('refuses to link when the provider has not verified the email: an error, nothing changed', async () => {
    const email = uniqueEmail('unverified');
    const userId = await emailUser(email);
    const person = account({ email, email_verified: false });
    const client = server.client({ flowType: 'implicit' });
    const { data } = await client.signInWithOAuth({
      provider: 'oidc' as never,
      options: { redirectTo: `${APP}/login`, skipBrowserRedirect: true },
    });
    const landed = new URL(await signIn(data.url as string));
    expect(landed.origin + landed.pathname).toBe(`${APP}/login`);
    expect(landed.searchParams.get('error_code')).toBe('email_exists');
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('error_description')).toMatch(/already been registered/);
    expect(fragment(landed.toString()).get('access_token')).toBeNull();
    expect((await identitiesOf(userId)).map((row) => row.provider)).toEqual(['email']);
    const orphan = await server.db
      .select()
      .from(authIdentities)
      .where(eq(authIdentities.providerId, person.sub));
    expect(orphan).toEqual([]);
  });

  it('keeps an unverified provider email off a new account, so a later sign-up cannot claim it', async () => {
    const email = uniqueEmail('unproven');
    const person = account({ email, email_verified: false });
    const client = server.client({ flowType: 'implicit' });
    const { data } = await client.signInWithOAuth({
      provider: 'oidc' as never,
      options: { redirectTo: APP, skipBrowserRedirect: true },
    });
    const params = fragment(await signIn(data.url as string));
    const me = (await client.getUser(params.get('access_token') as string)).data.user;
    expect(me?.email).toBe('');
    expect(me?.identities?.[0]).toMatchObject({ id: person.sub, email });
    // The address's owner signs up separately and gets an account of their own.
    const ownerId = await emailUser(email);
    expect(ownerId).not.toBe(me?.id);
  });

  it('takes over an unconfirmed account only for a verified email, and drops its unproven password', async () => {
    const email = uniqueEmail('squatted');
    const userId = await emailUser(email, false);
    account({ email, email_verified: true });
    const client = server.client({ flowType: 'implicit' });
    const { data } = await client.signInWithOAuth({
      provider: 'oidc' as never,
      options: { redirectTo: APP, skipBrowserRedirect: true },
    });
    const params = fragment(await signIn(data.url as string));
    const me = await client.getUser(params.get('access_token') as string);
    expect(me.data.user?.id).toBe(userId);
    expect(me.data.user?.email_confirmed_at).toEqual(expect.any(String));
    const login = await client.signInWithPassword({ email, password: PASSWORD });
    expect(login.error?.code).toBe('invalid_credentials');
  });

  it('makes one user and one identity when the same new person signs in twice at once', async () => {
    const person = account();
    // Two tabs: each goes through the provider and stops just before our callback...
    const atCallback = await Promise.all(
      [1, 2].map(async () => {
        const start = await fetch(
          `${server.authUrl}/authorize?provider=oidc&redirect_to=${encodeURIComponent(APP)}`,
          { redirect: 'manual' },
        );
        const stop = await followRedirects(start.headers.get('location') as string, {
          stopAt: (url) => url.startsWith(`${server.authUrl}/callback`),
        });
        return stop.url;
      }),
    );
    // ...then both callbacks land together.
    const landed = await Promise.all(atCallback.map((url) => followRedirects(url)));
    const users = await Promise.all(
      landed.map(async ({ url }) => {
        const token = fragment(url).get('access_token') as string;
        return (await server.client().getUser(token)).data.user?.id;
      }),
    );
    expect(users[0]).toEqual(expect.any(String));
    expect(users[1]).toBe(users[0]);
    const rows = await server.db
      .select()
      .from(authIdentities)
      .where(eq(authIdentities.providerId, person.sub));
    expect(rows).toHaveLength(1);
  });

  it('refuses a tampered, replayed or expired state, before any user is made', async () => {
    const person = account();
    const authorize = await fetch(
      `${server.authUrl}/authorize?provider=oidc&redirect_to=${encodeURIComponent(APP)}`,
      {
        redirect: 'manual',
      },
    );
    expect(authorize.status).toBe(302);
    const toProvider = new URL(authorize.headers.get('location') as string);
    expect(toProvider.origin).toBe(oidc.issuer);
    expect(toProvider.searchParams.get('nonce')).toEqual(expect.any(String));
    expect(toProvider.searchParams.get('code_challenge_method')).toBe('S256');
    const state = toProvider.searchParams.get('state') as string;
    const [id, exp, mac] = state.split('.') as [string, string, string];

    const callback = async (query: string) => {
      const response = await fetch(`${server.authUrl}/callback?${query}`, { redirect: 'manual' });
      expect(response.status).toBe(303);
      return new URL(response.headers.get('location') as string);
    };
    for (const forged of [
      `${id}.${Number(exp) + 3600}.${mac}`,
      `${id}.${exp}.${mac.slice(0, -2)}AA`,
      'not-a-state',
      '',
    ]) {
      const landed = await callback(`state=${encodeURIComponent(forged)}&code=whatever`);
      expect(landed.origin).toBe(SITE);
      expect(landed.searchParams.get('error_code')).toBe('bad_oauth_state');
    }

    // The genuine state, once the provider has been through: works once.
    const landed = new URL((await followRedirects(toProvider.toString())).url);
    expect(fragment(landed.toString()).get('access_token')).toEqual(expect.any(String));
    const replay = await callback(`state=${encodeURIComponent(state)}&code=whatever`);
    expect(replay.searchParams.get('error_code')).toBe('bad_oauth_state');

    // A state whose sign-in waited too long.
    const late = await fetch(
      `${server.authUrl}/authorize?provider=oidc&redirect_to=${encodeURIComponent(APP)}`,
      {
        redirect: 'manual',
      },
    );
    const lateState = new URL(late.headers.get('location') as string).searchParams.get(
      'state',
    ) as string;
    await server.db
      .update(authOAuthStates)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authOAuthStates.id, lateState.split('.')[0] as string));
    const expired = await callback(`state=${encodeURIComponent(lateState)}&code=whatever`);
    expect(expired.origin).toBe(APP);
    expect(expired.searchParams.get('error_code')).toBe('bad_oauth_state');
    expect(expired.searchParams.get('error_description')).toMatch(/expired/);
    const users = await server.db.select().from(authUsers).where(eq(authUsers.email, person.email));
    expect(users).toHaveLength(1); // only the one genuine sign-in created a user
  });

  it('passes a provider refusal back to the app as error, error_code, error_description', async () => {
    const authorize = await fetch(
      `${server.authUrl}/authorize?provider=oidc&redirect_to=${encodeURIComponent(`${APP}/x`)}`,
      {
        redirect: 'manual',
      },
    );
    const state = new URL(authorize.headers.get('location') as string).searchParams.get(
      'state',
    ) as string;
    const response = await fetch(
      `${server.authUrl}/callback?state=${encodeURIComponent(state)}&error=access_denied&error_description=User+said+no`,
      { redirect: 'manual' },
    );
    const landed = new URL(response.headers.get('location') as string);
    expect(landed.origin + landed.pathname).toBe(`${APP}/x`);
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('error_description')).toBe('User said no');
    expect(fragment(landed.toString()).get('error_code')).toBe('bad_oauth_callback');
  });

  it('refuses an unknown or disabled provider', async () => {
    const response = await fetch(`${server.authUrl}/authorize?provider=google`, {
      headers: { 'x-supabase-api-version': '2024-01-01' },
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('provider_disabled');
  });

  it('accepts the callback as a form post (response_mode=form_post)', async () => {
    account();
    const authorize = await fetch(
      `${server.authUrl}/authorize?provider=oidc&redirect_to=${encodeURIComponent(APP)}`,
      {
        redirect: 'manual',
      },
    );
    const toProvider = authorize.headers.get('location') as string;
    const atCallback = await followRedirects(toProvider, {
      stopAt: (url) => url.startsWith(`${server.authUrl}/callback`),
    });
    const query = new URL(atCallback.url).searchParams;
    const response = await fetch(`${server.authUrl}/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        code: query.get('code') as string,
        state: query.get('state') as string,
      }),
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(fragment(response.headers.get('location') as string).get('access_token')).toEqual(
      expect.any(String),
    );
  });

  describe('grant_type=id_token', () => {
    it('signs in with an id_token and the nonce whose SHA-256 the provider saw', async () => {
      const person = account();
      const nonce = 'raw-nonce-for-the-app';
      const token = await oidc.obtainIdToken({ nonce: sha256Hex(nonce) });
      const client = server.client();
      const { data, error } = await client.signInWithIdToken({
        provider: 'oidc' as never,
        token,
        nonce,
      });
      expect(error).toBeNull();
      expect(data.user?.email).toBe(person.email);
      expect(data.session?.access_token).toEqual(expect.any(String));
    });

    it('refuses a wrong or missing nonce, another audience and another issuer', async () => {
      const person = account();
      const client = server.client();
      const nonce = 'the-right-nonce';
      const token = await oidc.obtainIdToken({ nonce: sha256Hex(nonce) });

      const wrong = await client.signInWithIdToken({
        provider: 'oidc' as never,
        token,
        nonce: 'other',
      });
      expect(wrong.error?.status).toBe(400);
      expect(wrong.error?.message).toMatch(/Nonces mismatch/);
      const missing = await client.signInWithIdToken({ provider: 'oidc' as never, token });
      expect(missing.error?.message).toMatch(/nonce/);

      const otherAudience = await oidc.obtainIdToken({
        nonce: sha256Hex(nonce),
        client: oidc.otherClient,
      });
      const audience = await client.signInWithIdToken({
        provider: 'oidc' as never,
        token: otherAudience,
        nonce,
      });
      expect(audience.error?.message).toMatch(/aud/);

      const stranger = await startTestOidcProvider({
        redirectUris: [`${server.authUrl}/callback`],
      });
      try {
        stranger.signInAs({ sub: person.sub, email: person.email, email_verified: true });
        const foreign = await stranger.obtainIdToken({ nonce: sha256Hex(nonce) });
        const issuer = await client.signInWithIdToken({
          provider: 'oidc' as never,
          token: foreign,
          nonce,
        });
        expect(issuer.error?.status).toBe(400);
        expect(issuer.error?.message).toMatch(/Bad ID token/);
      } finally {
        await stranger.stop();
      }
      const made = await server.db
        .select()
        .from(authUsers)
        .where(eq(authUsers.email, person.email));
      expect(made).toEqual([]);
    }, 60_000);

    it('refuses a provider that is not configured', async () => {
      const { error } = await server
        .client()
        .signInWithIdToken({ provider: 'google', token: 'x.y.z' });
      expect(error?.code).toBe('provider_disabled');
    });
  });

  describe('identities', () => {
    it('links a provider to the signed-in user, lists it, unlinks it, and keeps the last one', async () => {
      const email = uniqueEmail('linker');
      const userId = await emailUser(email);
      const client = server.client({ flowType: 'implicit' });
      expect((await client.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
      // A different email at the provider, not even verified: linking by hand needs neither.
      const person = account({ email: uniqueEmail('elsewhere'), email_verified: false });
      const link = await client.linkIdentity({
        provider: 'oidc' as never,
        options: { redirectTo: `${APP}/settings`, skipBrowserRedirect: true },
      });
      expect(link.error).toBeNull();
      const params = fragment(await signIn(link.data.url as string));
      const me = await client.getUser(params.get('access_token') as string);
      expect(me.data.user?.id).toBe(userId);

      const listed = await client.getUserIdentities();
      expect(listed.data?.identities.map((identity) => identity.provider).sort()).toEqual([
        'email',
        'oidc',
      ]);
      const oidcIdentity = listed.data?.identities.find((identity) => identity.provider === 'oidc');
      expect(oidcIdentity?.id).toBe(person.sub);

      expect((await client.unlinkIdentity(oidcIdentity as never)).error).toBeNull();
      const after = await client.getUserIdentities();
      expect(after.data?.identities.map((identity) => identity.provider)).toEqual(['email']);
      const refreshed = await client.refreshSession();
      expect(refreshed.data.user?.app_metadata.providers).toEqual(['email']);

      const last = await client.unlinkIdentity(after.data?.identities[0] as never);
      expect(last.error?.code).toBe('single_identity_not_deletable');
      expect(last.error?.status).toBe(422);
      expect(await identitiesOf(userId)).toHaveLength(1);
    });

    it('links with an id_token (linkIdentity with a token), and two concurrent unlinks keep one identity', async () => {
      const email = uniqueEmail('tokenlink');
      const userId = await emailUser(email);
      const client = server.client();
      await client.signInWithPassword({ email, password: PASSWORD });
      account();
      const nonce = 'link-nonce';
      const token = await oidc.obtainIdToken({ nonce: sha256Hex(nonce) });
      const linked = await client.linkIdentity({ provider: 'oidc' as never, token, nonce });
      expect(linked.error).toBeNull();
      expect(linked.data.user?.id).toBe(userId);
      const rows = await identitiesOf(userId);
      expect(rows.map((row) => row.provider).sort()).toEqual(['email', 'oidc']);

      // Each request alone would be allowed; together they would leave none.
      const { data } = await client.getSession();
      const results = await Promise.all(
        rows.map((row) =>
          fetch(`${server.authUrl}/user/identities/${row.id}`, {
            method: 'DELETE',
            headers: { ...HEADERS, authorization: `Bearer ${data.session?.access_token}` },
          }),
        ),
      );
      expect(results.map((response) => response.status).sort()).toEqual([200, 422]);
      expect(await identitiesOf(userId)).toHaveLength(1);
    });

    it('turns an anonymous user into a permanent one when they link a provider', async () => {
      const client = server.client({ flowType: 'pkce' });
      const anonymous = await client.signInAnonymously();
      const userId = anonymous.data.user?.id as string;
      const person = account();
      const link = await client.linkIdentity({
        provider: 'oidc' as never,
        options: { redirectTo: APP, skipBrowserRedirect: true },
      });
      const landed = new URL(await signIn(link.data.url as string));
      const exchanged = await client.exchangeCodeForSession(
        landed.searchParams.get('code') as string,
      );
      expect(exchanged.error).toBeNull();
      expect(exchanged.data.user).toMatchObject({
        id: userId,
        is_anonymous: false,
        email: person.email,
        app_metadata: { provider: 'oidc', providers: ['oidc'] },
      });
    });

    it("refuses to link an identity that belongs to someone else, or to unlink another user's", async () => {
      const owner = account();
      const ownerClient = server.client({ flowType: 'implicit' });
      const signed = await ownerClient.signInWithOAuth({
        provider: 'oidc' as never,
        options: { redirectTo: APP, skipBrowserRedirect: true },
      });
      const ownerToken = fragment(await signIn(signed.data.url as string)).get(
        'access_token',
      ) as string;
      const ownerUser = (await ownerClient.getUser(ownerToken)).data.user;

      const email = uniqueEmail('other');
      await emailUser(email);
      const client = server.client({ flowType: 'implicit' });
      await client.signInWithPassword({ email, password: PASSWORD });
      oidc.signInAs(owner);
      const link = await client.linkIdentity({
        provider: 'oidc' as never,
        options: { redirectTo: APP, skipBrowserRedirect: true },
      });
      const landed = new URL(await signIn(link.data.url as string));
      expect(landed.searchParams.get('error_code')).toBe('identity_already_exists');

      const { data: session } = await client.getSession();
      const foreign = await fetch(
        `${server.authUrl}/user/identities/${ownerUser?.identities?.[0]?.identity_id}`,
        {
          method: 'DELETE',
          headers: { ...HEADERS, authorization: `Bearer ${session.session?.access_token}` },
        },
      );
      expect(foreign.status).toBe(422);
      expect(((await foreign.json()) as { code: string }).code).toBe('identity_not_found');
      expect(await identitiesOf(ownerUser?.id as string)).toHaveLength(1);

      const anonymous = await fetch(`${server.authUrl}/user/identities/authorize?provider=oidc`, {
        headers: HEADERS,
      });
      expect(anonymous.status).toBe(401);
    });
  });

  it('signs in with the GitHub preset (OAuth 2 and its API; a local fake, GitHub cannot be reached from tests)', async () => {
    github.setUser({
      id: 9000 + counter,
      login: 'octo-tests',
      name: 'Octo Tests',
      emails: [
        { email: 'old@example.com', primary: false, verified: false },
        { email: `octo.${Date.now()}@example.com`, primary: true, verified: true },
      ],
    });
    const client = server.client({ flowType: 'pkce' });
    const { data } = await client.signInWithOAuth({
      provider: 'github',
      options: { redirectTo: APP, skipBrowserRedirect: true },
    });
    const landed = new URL(await signIn(data.url as string));
    const waiting = await server.db
      .select()
      .from(authFlowStates)
      .where(eq(authFlowStates.providerType, 'github'));
    expect(waiting).toHaveLength(1);
    expect(waiting[0]?.providerAccessToken).toMatch(/^v1\./);
    expect(waiting[0]?.providerAccessToken).not.toContain('gho_');
    const exchanged = await client.exchangeCodeForSession(
      landed.searchParams.get('code') as string,
    );
    expect(exchanged.error).toBeNull();
    const user = exchanged.data.user;
    expect(user?.email).toMatch(/^octo\.\d+@example\.com$/);
    expect(exchanged.data.session?.provider_token).toMatch(/^gho_/);
    expect(user?.email_confirmed_at).toEqual(expect.any(String));
    expect(user?.identities?.[0]).toMatchObject({
      provider: 'github',
      id: String(9000 + counter),
      identity_data: expect.objectContaining({ user_name: 'octo-tests', email_verified: true }),
    });
  });
});

describe.each(testDrivers)('OAuth switched off (%s)', (driver) => {
  let server: AuthServer;
  beforeAll(async () => {
    server = await startAuthServer(driver, { ANONYMOUS_SIGN_INS_ENABLED: 'true' });
  }, 60_000);
  afterAll(() => server?.close());

  it('lists no provider, refuses /authorize, and keeps manual linking off (GoTrue default)', async () => {
    const settings = (await (await fetch(`${server.authUrl}/settings`)).json()) as {
      external: Record<string, boolean>;
    };
    expect(settings.external).toMatchObject({ oidc: false, github: false, google: false });
    const authorize = await fetch(`${server.authUrl}/authorize?provider=oidc`, {
      headers: HEADERS,
      redirect: 'manual',
    });
    expect(authorize.status).toBe(400);
    expect(((await authorize.json()) as { code: string }).code).toBe('provider_disabled');

    const client = server.client();
    const { data } = await client.signInAnonymously();
    const bearer = { ...HEADERS, authorization: `Bearer ${data.session?.access_token}` };
    const link = await fetch(`${server.authUrl}/user/identities/authorize?provider=oidc`, {
      headers: bearer,
    });
    expect(link.status).toBe(404);
    expect(((await link.json()) as { code: string }).code).toBe('manual_linking_disabled');
    const unlink = await fetch(`${server.authUrl}/user/identities/${data.user?.id}`, {
      method: 'DELETE',
      headers: bearer,
    });
    expect(unlink.status).toBe(404);
    const grant = await client.signInWithIdToken({ provider: 'google', token: 'x.y.z' });
    expect(grant.error?.code).toBe('provider_disabled');
  });

  it('answers id_token grants as GoTrue does: its providers are not enabled, others not allowed', async () => {
    const unsigned = (claims: object) =>
      `eyJhbGciOiJSUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;
    const azure = 'https://login.microsoftonline.com/tenant-1/v2.0';
    const disabled = (issuer: string) => ({
      status: 400,
      code: 'provider_disabled',
      message: `Provider (issuer "${issuer}") is not enabled`,
    });
    const refused = (message: string) => ({ status: 400, code: 'validation_failed', message });
    const cases: Array<[string, string, ReturnType<typeof refused>]> = [
      ['google', 'x.y.z', disabled('https://accounts.google.com')],
      ['apple', 'x.y.z', disabled('https://appleid.apple.com')],
      ['https://www.facebook.com', 'x.y.z', disabled('https://www.facebook.com')],
      ['keycloak', 'x.y.z', disabled('')],
      // Azure's issuer is the token's own (each tenant has one).
      ['azure', unsigned({ iss: azure, sub: 'someone' }), disabled(azure)],
      ['azure', 'x.y.z', refused('Unable to detect issuer in ID token for Azure provider')],
      ['oidc', 'x.y.z', refused('Custom OIDC provider "oidc" not allowed')],
      ['github', 'x.y.z', refused('Custom OIDC provider "github" not allowed')],
    ];
    const before = await server.db.select().from(authUsers);
    for (const [provider, token, expected] of cases) {
      const client = server.client();
      const { data, error } = await client.signInWithIdToken({
        provider: provider as never,
        token,
      });
      expect(
        { status: error?.status, code: error?.code, message: error?.message },
        provider,
      ).toEqual(expected);
      expect(data.session).toBeNull();
      expect((await client.getSession()).data.session).toBeNull();
    }
    expect(await server.db.select().from(authUsers)).toEqual(before);
  });
});
