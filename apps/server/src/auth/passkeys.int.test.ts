import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authAuditLog,
  authMfaChallenges,
  authPasskeyChallenges,
  authPasskeys,
} from '../db/schema/auth.ts';
import { testDrivers } from '../test/database.ts';
import { type AuthServer, startAuthServer, uniqueEmail } from './testing.ts';
import { optionsJson, softwareAuthenticator } from './webauthn-authenticator.ts';

const PASSWORD = 'correct horse battery';

type Claims = { aal: string; amr: Array<{ method: string }>; session_id: string };
type Authenticator = ReturnType<typeof softwareAuthenticator>;
type Client = ReturnType<AuthServer['client']>;
type CreationJson = Parameters<Authenticator['create']>[0];
type RequestJson = Parameters<Authenticator['get']>[0];

const claimsOf = (token: string | undefined) => decodeJwt(token as string) as Claims;
/** What navigator.credentials hands auth-js: an object whose toJSON() is the response. */
const asCredential = (json: unknown) => ({ toJSON: () => json }) as never;

describe.each(testDrivers)('passkeys and WebAuthn MFA with auth-js (%s)', (driver) => {
  let server: AuthServer;

  beforeAll(async () => {
    server = await startAuthServer(driver, { MAILER_AUTOCONFIRM: 'true' });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function signedUp() {
    const email = uniqueEmail('passkey');
    const client = server.client();
    const { data, error } = await client.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    return { client, email, userId: data.user?.id as string };
  }

  /** auth-js's registerPasskey without the browser: options, the authenticator, verify. */
  async function registerPasskey(client: Client, authenticator: Authenticator) {
    const options = await client.passkey.startRegistration();
    expect(options.error).toBeNull();
    const credential = authenticator.create(options.data?.options as unknown as CreationJson);
    return client.passkey.verifyRegistration({
      challengeId: options.data?.challenge_id as string,
      credential: credential as never,
    });
  }

  /** auth-js's signInWithPasskey without the browser, on a fresh client. */
  async function signInWithPasskey(
    authenticator: Authenticator,
    tamper: Parameters<Authenticator['get']>[1] = {},
  ) {
    const client = server.client();
    const options = await client.passkey.startAuthentication();
    expect(options.error).toBeNull();
    const assertion = authenticator.get(options.data?.options as unknown as RequestJson, tamper);
    const result = await client.passkey.verifyAuthentication({
      challengeId: options.data?.challenge_id as string,
      credential: assertion as never,
    });
    return { client, result, challengeId: options.data?.challenge_id as string, assertion };
  }

  it('registers a passkey, lists and renames it, and signs in with it (aal1, amr passkey)', async () => {
    const { client, userId } = await signedUp();
    const authenticator = softwareAuthenticator(server.baseUrl);
    const registered = await registerPasskey(client, authenticator);
    expect(registered.error).toBeNull();
    expect(registered.data).toMatchObject({ friendly_name: 'Passkey' });
    const passkeyId = registered.data?.id as string;

    const options = await client.passkey.startRegistration();
    // The relying party is the server's PUBLIC_URL; a passkey must be discoverable; the
    // user handle is the user id; the credential just registered is excluded.
    expect(options.data?.options).toMatchObject({
      rp: { id: '127.0.0.1', name: 'UpNext' },
      user: { id: Buffer.from(userId).toString('base64url') },
      authenticatorSelection: { residentKey: 'required' },
      excludeCredentials: [{ id: authenticator.credentials[0]?.id.toString('base64url') }],
    });

    const renamed = await client.passkey.update({ passkeyId, friendlyName: '  Work laptop ' });
    expect(renamed.error).toBeNull();
    expect(renamed.data?.friendly_name).toBe('Work laptop');
    const tooLong = await client.passkey.update({ passkeyId, friendlyName: 'x'.repeat(121) });
    expect(tooLong.error?.code).toBe('validation_failed');

    const { client: other, result } = await signInWithPasskey(authenticator);
    expect(result.error).toBeNull();
    expect(result.data?.user?.id).toBe(userId);
    const claims = claimsOf(result.data?.session?.access_token);
    expect(claims.aal).toBe('aal1');
    expect(claims.amr.map((entry) => entry.method)).toEqual(['passkey']);
    // auth-js saved the session: the user's own calls work with it.
    const listed = await other.passkey.list();
    expect(listed.error).toBeNull();
    expect(listed.data).toEqual([
      {
        id: passkeyId,
        friendly_name: 'Work laptop',
        created_at: expect.any(String),
        last_used_at: expect.any(String),
      },
    ]);
    const [row] = await server.db.select().from(authPasskeys).where(eq(authPasskeys.id, passkeyId));
    expect(row?.signCount).toBe(1);
    const events = await server.db
      .select()
      .from(authAuditLog)
      .where(eq(authAuditLog.actorId, userId))
      .orderBy(authAuditLog.createdAt);
    expect(events.map((e) => e.action)).toEqual(
      expect.arrayContaining(['passkey_created', 'passkey_updated']),
    );
    expect(events.at(-1)).toMatchObject({ action: 'login', traits: { method: 'passkey' } });
  });

  it('refuses a wrong signature, a replayed or expired challenge and a counter that went back', async () => {
    const { client } = await signedUp();
    const authenticator = softwareAuthenticator(server.baseUrl);
    expect((await registerPasskey(client, authenticator)).error).toBeNull();

    const forged = await signInWithPasskey(authenticator, { signature: true });
    expect(forged.result.error).toMatchObject({
      status: 400,
      code: 'webauthn_verification_failed',
    });

    const good = await signInWithPasskey(authenticator);
    expect(good.result.error).toBeNull();
    // The same challenge and assertion again: the challenge was used up.
    const replayed = await server.client().passkey.verifyAuthentication({
      challengeId: good.challengeId,
      credential: good.assertion as never,
    });
    expect(replayed.error).toMatchObject({ status: 400, code: 'webauthn_challenge_not_found' });

    // A cloned authenticator: a counter at or below the stored one.
    const credential = authenticator.credentials[0];
    const cloned = await signInWithPasskey(authenticator, {
      counter: credential?.counter ?? 0,
    });
    expect(cloned.result.error).toMatchObject({
      status: 400,
      code: 'webauthn_verification_failed',
    });

    const stale = server.client();
    const options = await stale.passkey.startAuthentication();
    await server.db
      .update(authPasskeyChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authPasskeyChallenges.id, options.data?.challenge_id as string));
    const expired = await stale.passkey.verifyAuthentication({
      challengeId: options.data?.challenge_id as string,
      credential: authenticator.get(options.data?.options as unknown as RequestJson) as never,
    });
    expect(expired.error).toMatchObject({ status: 400, code: 'webauthn_challenge_expired' });

    // A registration challenge is not a sign-in challenge (nor another user's).
    const registration = await client.passkey.startRegistration();
    const crossed = await server.client().passkey.verifyAuthentication({
      challengeId: registration.data?.challenge_id as string,
      credential: authenticator.get({ challenge: 'x' }) as never,
    });
    expect(crossed.error?.code).toBe('webauthn_challenge_not_found');
  });

  it('refuses an assertion whose user handle is not its credential’s user', async () => {
    const first = await signedUp();
    const second = await signedUp();
    const authenticator = softwareAuthenticator(server.baseUrl);
    expect((await registerPasskey(first.client, authenticator)).error).toBeNull();
    const credential = authenticator.credentials[0];
    if (!credential) throw new Error('no credential');
    credential.userHandle = Buffer.from(second.userId).toString('base64url');
    const { result } = await signInWithPasskey(authenticator);
    expect(result.error?.code).toBe('webauthn_verification_failed');
  });

  it('removes a passkey (only one’s own): it signs nobody in afterwards', async () => {
    const { client } = await signedUp();
    const stranger = await signedUp();
    const authenticator = softwareAuthenticator(server.baseUrl);
    const registered = await registerPasskey(client, authenticator);
    const passkeyId = registered.data?.id as string;

    const foreign = await stranger.client.passkey.delete({ passkeyId });
    expect(foreign.error).toMatchObject({ status: 404, code: 'validation_failed' });
    const removed = await client.passkey.delete({ passkeyId });
    expect(removed.error).toBeNull();
    expect((await client.passkey.list()).data).toEqual([]);
    const { result } = await signInWithPasskey(authenticator);
    expect(result.error?.code).toBe('webauthn_verification_failed');
  });

  it('enrols a WebAuthn factor: create then request challenges raise the session to aal2', async () => {
    const { client, email } = await signedUp();
    const authenticator = softwareAuthenticator(server.baseUrl);
    const rp = { rpId: '127.0.0.1', rpOrigins: [server.baseUrl] };

    const enrolled = await client.mfa.webauthn.enroll({ friendlyName: 'Security key' });
    expect(enrolled.error).toBeNull();
    expect(enrolled.data).toMatchObject({ type: 'webauthn', friendly_name: 'Security key' });
    const factorId = enrolled.data?.id as string;

    const create = await client.mfa.challenge({ factorId, webauthn: rp });
    expect(create.error).toBeNull();
    expect(create.data?.webauthn.type).toBe('create');
    const created = authenticator.create(
      optionsJson<CreationJson>(create.data?.webauthn.credential_options.publicKey),
    );
    const verified = await client.mfa.verify({
      factorId,
      challengeId: create.data?.id as string,
      webauthn: { ...rp, type: 'create', credential_response: asCredential(created) },
    });
    expect(verified.error).toBeNull();
    let claims = claimsOf(verified.data?.access_token);
    expect(claims.aal).toBe('aal2');
    expect(claims.amr.map((entry) => entry.method)).toEqual(['mfa/webauthn', 'password']);
    const factors = await client.mfa.listFactors();
    expect(factors.data?.webauthn.map((f) => f.id)).toEqual([factorId]);

    // A later sign-in: aal1 with a next level of aal2, reached with the security key.
    const later = server.client();
    await later.signInWithPassword({ email, password: PASSWORD });
    const level = await later.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });

    async function requestChallenge() {
      const challenge = await later.mfa.challenge({ factorId, webauthn: rp });
      expect(challenge.data?.webauthn.type).toBe('request');
      const options = optionsJson<RequestJson>(
        challenge.data?.webauthn.credential_options.publicKey,
      );
      expect(options.allowCredentials?.map((c) => c.id)).toEqual([
        authenticator.credentials[0]?.id.toString('base64url'),
      ]);
      return { challengeId: challenge.data?.id as string, options };
    }
    const answer = (challengeId: string, assertion: unknown) =>
      later.mfa.verify({
        factorId,
        challengeId,
        webauthn: { ...rp, type: 'request', credential_response: asCredential(assertion) },
      });

    const forged = await requestChallenge();
    const wrong = await answer(
      forged.challengeId,
      authenticator.get(forged.options, { signature: true }),
    );
    expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });

    const good = await requestChallenge();
    const assertion = authenticator.get(good.options);
    const raised = await answer(good.challengeId, assertion);
    expect(raised.error).toBeNull();
    claims = claimsOf(raised.data?.access_token);
    expect(claims.aal).toBe('aal2');
    expect(claims.amr[0]?.method).toBe('mfa/webauthn');
    const replayed = await answer(good.challengeId, assertion);
    expect(replayed.error?.code).toBe('mfa_challenge_expired');

    const cloned = await requestChallenge();
    const counter = authenticator.credentials[0]?.counter ?? 0;
    const regressed = await answer(
      cloned.challengeId,
      authenticator.get(cloned.options, { counter: counter - 1 }),
    );
    expect(regressed.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });

    const expiring = await requestChallenge();
    await server.db
      .update(authMfaChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authMfaChallenges.id, expiring.challengeId));
    const expired = await answer(expiring.challengeId, authenticator.get(expiring.options));
    expect(expired.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });
  });

  it('with MFA on, adding or removing a passkey needs an aal2 session', async () => {
    const { client, email } = await signedUp();
    const keyAuthenticator = softwareAuthenticator(server.baseUrl);
    const passkeyAuthenticator = softwareAuthenticator(server.baseUrl);
    const registered = await registerPasskey(client, passkeyAuthenticator);
    const passkeyId = registered.data?.id as string;
    const rp = { rpId: '127.0.0.1' };
    const enrolled = await client.mfa.webauthn.enroll({ friendlyName: 'Key' });
    const factorId = enrolled.data?.id as string;
    const create = await client.mfa.challenge({ factorId, webauthn: rp });
    const created = keyAuthenticator.create(
      optionsJson<CreationJson>(create.data?.webauthn.credential_options.publicKey),
    );
    expect(
      (
        await client.mfa.verify({
          factorId,
          challengeId: create.data?.id as string,
          webauthn: { ...rp, type: 'create', credential_response: asCredential(created) },
        })
      ).error,
    ).toBeNull();

    // A passkey sign-in is aal1: it may not add or remove a passkey now.
    const { client: aal1 } = await signInWithPasskey(passkeyAuthenticator);
    const adding = await aal1.passkey.startRegistration();
    expect(adding.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
    const removing = await aal1.passkey.delete({ passkeyId });
    expect(removing.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
    // Renaming changes no way in: allowed.
    expect((await aal1.passkey.update({ passkeyId, friendlyName: 'Phone' })).error).toBeNull();

    // Unenrolling the verified factor at aal1 is refused too (GoTrue's rule for factors).
    const password = server.client();
    await password.signInWithPassword({ email, password: PASSWORD });
    const unenroll = await password.mfa.unenroll({ factorId });
    expect(unenroll.error?.code).toBe('insufficient_aal');
    // From the aal2 session the factor goes, and sessions raised with it fall back.
    expect((await client.mfa.unenroll({ factorId })).error).toBeNull();
    await client.refreshSession();
    const { data } = await client.getSession();
    expect(claimsOf(data.session?.access_token).aal).toBe('aal1');
  });

  it('refuses missing or malformed ceremony input with validation_failed', async () => {
    const response = await fetch(`${server.authUrl}/passkeys/authentication/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      body: JSON.stringify({ challenge_id: 'not-a-uuid', credential: {} }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'validation_failed' });
    const missing = await fetch(`${server.authUrl}/passkeys/authentication/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      body: JSON.stringify({}),
    });
    expect(await missing.json()).toMatchObject({ code: 'validation_failed' });
    // A credential response is bounded (64 KB of JSON) before any parsing of it.
    const huge = await fetch(`${server.authUrl}/passkeys/authentication/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      body: JSON.stringify({
        challenge_id: crypto.randomUUID(),
        credential: { id: 'x', response: { clientDataJSON: 'x'.repeat(70_000) } },
      }),
    });
    expect(huge.status).toBe(400);
    expect(await huge.json()).toMatchObject({ code: 'validation_failed' });
  });
});
