import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFlowStates } from '../db/schema/auth.ts';
import { testDrivers } from '../test/database.ts';
import { type AuthServer, startAuthServer, uniqueEmail } from './testing.ts';

const PASSWORD = 'correct horse battery';
const HEADERS = {
  'content-type': 'application/json;charset=UTF-8',
  'x-supabase-api-version': '2024-01-01',
};

async function post(server: AuthServer, path: string, body: unknown) {
  const response = await fetch(`${server.authUrl}${path}`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** Opens an emailed link like a browser would and returns where it lands. */
async function open(link: string): Promise<URL> {
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(303);
  return new URL(response.headers.get('location') as string);
}

describe.each(testDrivers)('PKCE email flows (%s)', (driver) => {
  let server: AuthServer;
  beforeAll(async () => {
    server = await startAuthServer(driver, { URI_ALLOW_LIST: 'https://app.example.com/**' });
  });
  afterAll(() => server?.close());

  it('confirms a sign-up through a pkce_ link, a code in the query and the exchange by auth-js', async () => {
    const client = server.client({ flowType: 'pkce' });
    const email = uniqueEmail('pkce');
    const { error } = await client.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: 'https://app.example.com/login?redirect=/admin' },
    });
    expect(error).toBeNull();
    const { link } = await server.lastMail(email);
    expect(new URL(link as string).searchParams.get('token')).toMatch(/^pkce_/);
    const landed = await open(link as string);
    expect(landed.origin + landed.pathname).toBe('https://app.example.com/login');
    expect(landed.searchParams.get('redirect')).toBe('/admin');
    expect(landed.hash).toBe('');
    const code = landed.searchParams.get('code') as string;
    const exchanged = await client.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(email);
    expect(exchanged.data.user?.email_confirmed_at).toEqual(expect.any(String));
    // Single use.
    const again = await post(server, '/token?grant_type=pkce', {
      auth_code: code,
      code_verifier: 'x'.repeat(43),
    });
    expect([again.status, again.json.code]).toEqual([404, 'flow_state_not_found']);
  });

  it('recovers a password with PKCE: the exchange emits PASSWORD_RECOVERY', async () => {
    const email = uniqueEmail('pkce-recover');
    const first = server.client();
    await first.signUp({ email, password: PASSWORD });
    const { code: signupCode } = await server.lastMail(email);
    await first.verifyOtp({ email, token: signupCode as string, type: 'signup' });

    const client = server.client({ flowType: 'pkce' });
    const events: string[] = [];
    client.onAuthStateChange((event) => {
      events.push(event);
    });
    expect((await client.resetPasswordForEmail(email)).error).toBeNull();
    const landed = await open((await server.lastMail(email)).link as string);
    const exchanged = await client.exchangeCodeForSession(
      landed.searchParams.get('code') as string,
    );
    expect(exchanged.error).toBeNull();
    expect((exchanged.data as { redirectType?: string | null }).redirectType).toBe('recovery');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events).toContain('PASSWORD_RECOVERY');
    expect((await client.updateUser({ password: 'a new pkce password' })).error).toBeNull();
  });

  it('signs in with a PKCE magic link', async () => {
    const email = uniqueEmail('pkce-otp');
    const client = server.client({ flowType: 'pkce' });
    await client.signInWithOtp({ email });
    const landed = await open((await server.lastMail(email)).link as string);
    const exchanged = await client.exchangeCodeForSession(
      landed.searchParams.get('code') as string,
    );
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.session?.user.email).toBe(email);
  });

  it('changes the email with PKCE: the first link answers with a message, the last with a code', async () => {
    const email = uniqueEmail('pkce-change');
    const client = server.client({ flowType: 'pkce' });
    await client.signUp({ email, password: PASSWORD });
    const confirm = await open((await server.lastMail(email)).link as string);
    expect(
      (await client.exchangeCodeForSession(confirm.searchParams.get('code') as string)).error,
    ).toBeNull();

    const next = uniqueEmail('pkce-next');
    expect((await client.updateUser({ email: next })).error).toBeNull();
    const first = await open((await server.lastMail(next)).link as string);
    expect(new URLSearchParams(first.hash.slice(1)).get('message')).toMatch(
      /^Confirmation link accepted/,
    );
    expect(first.searchParams.get('code')).toBeNull();
    const last = await open((await server.lastMail(email)).link as string);
    const exchanged = await client.exchangeCodeForSession(last.searchParams.get('code') as string);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(next);
  });

  it('refuses a wrong verifier, an expired code, plain challenges and half a challenge', async () => {
    const email = uniqueEmail('pkce-raw');
    const verifier = 'v'.repeat(64);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expect(
      (
        await post(server, '/otp', {
          email,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        })
      ).status,
    ).toBe(200);
    const code = (await open((await server.lastMail(email)).link as string)).searchParams.get(
      'code',
    ) as string;

    const wrong = await post(server, '/token?grant_type=pkce', {
      auth_code: code,
      code_verifier: 'w'.repeat(64),
    });
    expect([wrong.status, wrong.json.code]).toEqual([400, 'bad_code_verifier']);

    await server.db
      .update(authFlowStates)
      .set({ authCodeIssuedAt: new Date(Date.now() - 301_000) })
      .where(eq(authFlowStates.codeChallenge, challenge));
    const late = await post(server, '/token?grant_type=pkce', {
      auth_code: code,
      code_verifier: verifier,
    });
    expect([late.status, late.json.code]).toEqual([422, 'flow_state_expired']);

    const plain = await post(server, '/otp', {
      email: uniqueEmail(),
      code_challenge: verifier,
      code_challenge_method: 'plain',
    });
    expect([plain.status, plain.json.code]).toEqual([400, 'validation_failed']);
    const half = await post(server, '/otp', { email: uniqueEmail(), code_challenge: challenge });
    expect([half.status, half.json.code]).toEqual([400, 'validation_failed']);
  });

  it('puts a PKCE link error in the query and the fragment', async () => {
    const landed = await open(
      `${server.authUrl}/verify?token=pkce_nothing&type=signup&redirect_to=${encodeURIComponent('https://app.example.com/login')}`,
    );
    expect(landed.searchParams.get('error_code')).toBe('otp_expired');
    expect(new URLSearchParams(landed.hash.slice(1)).get('error_code')).toBe('otp_expired');
  });
});
