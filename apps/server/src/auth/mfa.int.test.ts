import { AuthApiError } from '@supabase/auth-js';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authAuditLog, authMfaChallenges, authMfaFactors } from '../db/schema/auth.ts';
import { testDrivers } from '../test/database.ts';
import { type AuthServer, startAuthServer, uniqueEmail } from './testing.ts';

const PASSWORD = 'correct horse battery';

/** The code an authenticator app shows now (or `steps` periods later). */
function codeFor(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

type Claims = {
  aal: string;
  amr: Array<{ method: string; timestamp: number }>;
  session_id: string;
};

describe.each(testDrivers)('MFA (TOTP) with auth-js (%s)', (driver) => {
  let server: AuthServer;

  beforeAll(async () => {
    server = await startAuthServer(driver, {
      MAILER_AUTOCONFIRM: 'true',
      MFA_MAX_ENROLLED_FACTORS: '3',
      ANONYMOUS_SIGN_INS_ENABLED: 'true',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function signedIn(email = uniqueEmail('mfa')) {
    const client = server.client();
    const { data, error } = await client.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    return { client, email, session: data.session };
  }

  /** Enrols and verifies a TOTP factor: the client's session is aal2 afterwards. */
  async function withVerifiedFactor() {
    const user = await signedIn();
    const { data, error } = await user.client.mfa.enroll({ factorType: 'totp' });
    expect(error).toBeNull();
    const secret = data?.totp?.secret as string;
    const factorId = data?.id as string;
    const usedCode = codeFor(secret);
    const verified = await user.client.mfa.challengeAndVerify({ factorId, code: usedCode });
    expect(verified.error).toBeNull();
    return { ...user, secret, factorId, usedCode };
  }

  it('enrols, challenges and verifies: the same session becomes aal2 with totp in amr', async () => {
    const { client, email, session } = await signedIn();
    const before = decodeJwt(session?.access_token as string) as Claims;
    expect(before.aal).toBe('aal1');

    const enrolled = await client.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone app' });
    expect(enrolled.error).toBeNull();
    const totp = enrolled.data?.totp;
    expect(enrolled.data?.type).toBe('totp');
    expect(enrolled.data?.friendly_name).toBe('Phone app');
    expect(totp?.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(totp?.uri).toMatch(/^otpauth:\/\/totp\/127\.0\.0\.1:/);
    expect(totp?.uri).toContain(encodeURIComponent(email));
    expect(totp?.uri).toContain(`secret=${totp?.secret}`);
    // The server sends the SVG; auth-js makes it a data URL.
    expect(totp?.qr_code.startsWith('data:image/svg+xml;utf-8,<svg')).toBe(true);

    let factors = await client.mfa.listFactors();
    expect(factors.data?.all).toHaveLength(1);
    expect(factors.data?.all[0]?.status).toBe('unverified');
    expect(factors.data?.totp).toHaveLength(0);
    const aal1 = await client.mfa.getAuthenticatorAssuranceLevel();
    expect(aal1.data?.currentLevel).toBe('aal1');
    expect(aal1.data?.nextLevel).toBe('aal1');

    const factorId = enrolled.data?.id as string;
    const challenge = await client.mfa.challenge({ factorId });
    expect(challenge.error).toBeNull();
    expect(challenge.data?.type).toBe('totp');
    const now = Math.floor(Date.now() / 1000);
    expect(challenge.data?.expires_at).toBeGreaterThanOrEqual(now + 290);
    expect(challenge.data?.expires_at).toBeLessThanOrEqual(now + 310);

    const events: string[] = [];
    client.onAuthStateChange((event) => {
      events.push(event);
    });
    const verified = await client.mfa.verify({
      factorId,
      challengeId: challenge.data?.id as string,
      code: codeFor(totp?.secret as string),
    });
    expect(verified.error).toBeNull();
    const claims = decodeJwt(verified.data?.access_token as string) as Claims;
    expect(claims.aal).toBe('aal2');
    expect(claims.session_id).toBe(before.session_id);
    expect(claims.amr.map((entry) => entry.method)).toEqual(['totp', 'password']);
    expect(claims.amr[0]?.timestamp).toBeGreaterThanOrEqual(now - 5);
    expect(verified.data?.refresh_token).not.toBe(session?.refresh_token);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events).toContain('MFA_CHALLENGE_VERIFIED');

    const aal2 = await client.mfa.getAuthenticatorAssuranceLevel();
    expect(aal2.data?.currentLevel).toBe('aal2');
    expect(aal2.data?.nextLevel).toBe('aal2');
    expect(
      aal2.data?.currentAuthenticationMethods.map((entry) =>
        typeof entry === 'string' ? entry : entry.method,
      ),
    ).toContain('totp');
    factors = await client.mfa.listFactors();
    expect(factors.data?.totp).toHaveLength(1);
    expect(factors.data?.totp[0]?.status).toBe('verified');
    expect(factors.data?.totp[0]?.friendly_name).toBe('Phone app');

    // A refresh keeps aal2.
    const refreshed = await client.refreshSession();
    expect(refreshed.error).toBeNull();
    expect((decodeJwt(refreshed.data.session?.access_token as string) as Claims).aal).toBe('aal2');

    // A new sign-in starts at aal1, with aal2 as the next level.
    const other = server.client();
    await other.signInWithPassword({ email, password: PASSWORD });
    const next = await other.mfa.getAuthenticatorAssuranceLevel();
    expect(next.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
  });

  it('refuses a wrong code and a replayed code; a fresh code for the next step still works', async () => {
    const { email, secret, factorId, usedCode } = await withVerifiedFactor();
    const client = server.client();
    await client.signInWithPassword({ email, password: PASSWORD });

    const wrong = await client.mfa.challengeAndVerify({
      factorId,
      code: String((Number(codeFor(secret)) + 1) % 1_000_000).padStart(6, '0'),
    });
    expect(wrong.error).toBeInstanceOf(AuthApiError);
    expect(wrong.error?.code).toBe('mfa_verification_failed');
    expect(wrong.error?.status).toBe(422);

    // The code just used to verify the factor is refused for this new session. (The code it
    // was, not the current one: a 30 s step may have ended since.)
    const replayed = await client.mfa.challengeAndVerify({ factorId, code: usedCode });
    expect(replayed.error?.code).toBe('mfa_verification_failed');
    expect((await client.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1');

    const nextCode = codeFor(secret, 1);
    const next = await client.mfa.challengeAndVerify({ factorId, code: nextCode });
    expect(next.error).toBeNull();
    const again = await server.client();
    await again.signInWithPassword({ email, password: PASSWORD });
    const replayedNext = await again.mfa.challengeAndVerify({ factorId, code: nextCode });
    expect(replayedNext.error?.code).toBe('mfa_verification_failed');
    const attempts = await server.db
      .select()
      .from(authAuditLog)
      .where(eq(authAuditLog.action, 'verification_attempted'));
    expect(attempts.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses an expired challenge, and a challenge after five wrong codes', async () => {
    const { client, secret, factorId } = await (async () => {
      const user = await signedIn();
      const { data } = await user.client.mfa.enroll({ factorType: 'totp' });
      return { ...user, secret: data?.totp?.secret as string, factorId: data?.id as string };
    })();
    const challenge = await client.mfa.challenge({ factorId });
    const challengeId = challenge.data?.id as string;
    await server.db
      .update(authMfaChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authMfaChallenges.id, challengeId));
    const expired = await client.mfa.verify({ factorId, challengeId, code: codeFor(secret) });
    expect(expired.error?.code).toBe('mfa_challenge_expired');
    expect(expired.error?.status).toBe(422);

    const second = await client.mfa.challenge({ factorId });
    const secondId = second.data?.id as string;
    for (let i = 0; i < 5; i++) {
      const wrong = await client.mfa.verify({ factorId, challengeId: secondId, code: '000000' });
      expect(wrong.error?.code).toMatch(/^mfa_verification_failed$/);
    }
    const locked = await client.mfa.verify({
      factorId,
      challengeId: secondId,
      code: codeFor(secret),
    });
    expect(locked.error?.code).toBe('mfa_challenge_expired');
    const [factor] = await server.db
      .select()
      .from(authMfaFactors)
      .where(eq(authMfaFactors.id, factorId));
    expect(factor?.status).toBe('unverified');
    // The secret is not stored in the clear.
    expect(factor?.secret).not.toContain(secret);
  });

  it('unenrols a verified factor only from an aal2 session; the user then signs in at aal1 only', async () => {
    const { client, email, factorId } = await withVerifiedFactor();
    const aal1 = server.client();
    await aal1.signInWithPassword({ email, password: PASSWORD });
    const refused = await aal1.mfa.unenroll({ factorId });
    expect(refused.error?.code).toBe('insufficient_aal');
    expect(refused.error?.status).toBe(422);
    // Enrolling another factor needs aal2 too, once one is verified.
    const enrol = await aal1.mfa.enroll({ factorType: 'totp' });
    expect(enrol.error?.code).toBe('insufficient_aal');

    const removed = await client.mfa.unenroll({ factorId });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: factorId });
    expect((await client.mfa.listFactors()).data?.all).toHaveLength(0);
    const token = (await aal1.getSession()).data.session?.access_token as string;
    const level = await aal1.mfa.getAuthenticatorAssuranceLevel(token);
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
    // The session raised with the factor falls back to aal1 at its next refresh.
    const refreshed = await client.refreshSession();
    expect((decodeJwt(refreshed.data.session?.access_token as string) as Claims).aal).toBe('aal1');
    const unknown = await client.mfa.unenroll({ factorId });
    expect(unknown.error?.code).toBe('mfa_factor_not_found');
    expect(unknown.error?.status).toBe(404);
  });

  it('needs aal2 to change the password or the email once a factor is verified', async () => {
    const { client, email } = await withVerifiedFactor();
    const aal1 = server.client();
    await aal1.signInWithPassword({ email, password: PASSWORD });
    const password = await aal1.updateUser({ password: 'another good password' });
    expect(password.error?.code).toBe('insufficient_aal');
    expect(password.error?.status).toBe(401);
    const address = await aal1.updateUser({ email: uniqueEmail('moved') });
    expect(address.error?.code).toBe('insufficient_aal');
    // Metadata needs no aal2.
    expect((await aal1.updateUser({ data: { theme: 'dark' } })).error).toBeNull();
    // From the aal2 session it works.
    const changed = await client.updateUser({ password: 'another good password' });
    expect(changed.error).toBeNull();
  });

  it('keeps friendly names unique per user and limits the number of factors', async () => {
    const { client } = await signedIn();
    const first = await client.mfa.enroll({ factorType: 'totp', friendlyName: 'Laptop' });
    expect(first.error).toBeNull();
    const clash = await client.mfa.enroll({ factorType: 'totp', friendlyName: 'Laptop' });
    expect(clash.error?.code).toBe('mfa_factor_name_conflict');
    expect(clash.error?.status).toBe(422);
    // Another user may use the same name.
    const other = await signedIn();
    expect(
      (await other.client.mfa.enroll({ factorType: 'totp', friendlyName: 'Laptop' })).error,
    ).toBeNull();

    await client.mfa.enroll({ factorType: 'totp', friendlyName: 'Tablet' });
    await client.mfa.enroll({ factorType: 'totp' });
    const tooMany = await client.mfa.enroll({ factorType: 'totp' });
    expect(tooMany.error?.code).toBe('too_many_enrolled_mfa_factors');
    expect((await client.mfa.listFactors()).data?.all).toHaveLength(3);
  });

  it('enrols a phone factor, texts the code, and verifies it to aal2 with mfa/phone', async () => {
    const phoneServer = await startAuthServer(driver, {
      MAILER_AUTOCONFIRM: 'true',
      MFA_PHONE_ENROLL_ENABLED: 'true',
    });
    try {
      const client = phoneServer.client();
      await client.signUp({ email: uniqueEmail('phone-mfa'), password: PASSWORD });
      const phone = `+1555${String(Date.now()).slice(-7)}`;
      const enrolled = await client.mfa.enroll({
        factorType: 'phone',
        phone,
        friendlyName: 'Mobile',
      });
      expect(enrolled.error).toBeNull();
      expect(enrolled.data).toMatchObject({ type: 'phone', phone: phone.slice(1) });
      const factorId = enrolled.data?.id as string;
      const challenge = await client.mfa.challenge({ factorId, channel: 'sms' });
      expect(challenge.error).toBeNull();
      expect(challenge.data?.type).toBe('phone');
      const { code } = await phoneServer.lastSms(phone);
      expect(code).toMatch(/^\d{6}$/);
      const wrong = await client.mfa.verify({
        factorId,
        challengeId: challenge.data?.id as string,
        code: code === '000000' ? '111111' : '000000',
      });
      expect(wrong.error?.code).toBe('mfa_verification_failed');
      const verified = await client.mfa.verify({
        factorId,
        challengeId: challenge.data?.id as string,
        code: code as string,
      });
      expect(verified.error).toBeNull();
      const claims = decodeJwt(verified.data?.access_token as string) as Claims;
      expect(claims.aal).toBe('aal2');
      expect(claims.amr[0]?.method).toBe('mfa/phone');
      const factors = await client.mfa.listFactors();
      expect(factors.data?.phone).toHaveLength(1);
      // The challenge is single use.
      const again = await client.mfa.verify({
        factorId,
        challengeId: challenge.data?.id as string,
        code: code as string,
      });
      expect(again.error?.code).toBe('mfa_challenge_expired');
      // The same number cannot be enrolled twice once verified.
      const twice = await client.mfa.enroll({ factorType: 'phone', phone });
      expect(twice.error?.code).toBe('mfa_verified_factor_exists');
    } finally {
      await phoneServer.close();
    }
  });

  it('answers phone factors as disabled, and refuses anonymous users and unknown factors', async () => {
    const { client } = await signedIn();
    const phone = await client.mfa.enroll({ factorType: 'phone', phone: '+15555550100' });
    expect(phone.error?.code).toBe('mfa_phone_enroll_not_enabled');
    expect(phone.error?.status).toBe(422);

    const unknown = await client.mfa.challenge({ factorId: crypto.randomUUID() });
    expect(unknown.error?.code).toBe('mfa_factor_not_found');
    const other = await withVerifiedFactor();
    // Someone else's factor is not found either.
    const foreign = await client.mfa.challenge({ factorId: other.factorId });
    expect(foreign.error?.code).toBe('mfa_factor_not_found');

    const anonymous = server.client();
    expect((await anonymous.signInAnonymously()).error).toBeNull();
    const refused = await anonymous.mfa.enroll({ factorType: 'totp' });
    expect(refused.error?.status).toBe(403);
  });

  it('refuses a verification from another IP than the challenge (mfa_ip_address_mismatch)', async () => {
    const proxied = await startAuthServer(driver, {
      MAILER_AUTOCONFIRM: 'true',
      TRUST_PROXY: 'true',
    });
    try {
      const { data } = await proxied
        .client()
        .signUp({ email: uniqueEmail('ip'), password: PASSWORD });
      const token = data.session?.access_token as string;
      const post = (path: string, body: unknown, ip: string) =>
        fetch(`${proxied.authUrl}${path}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'x-supabase-api-version': '2024-01-01',
            'x-forwarded-for': ip,
          },
          body: JSON.stringify(body),
        });
      const enrolled = (await (
        await post('/factors', { factor_type: 'totp' }, '203.0.113.1')
      ).json()) as {
        id: string;
        totp: { secret: string };
      };
      const challenge = (await (
        await post(`/factors/${enrolled.id}/challenge`, {}, '203.0.113.1')
      ).json()) as { id: string };
      const code = codeFor(enrolled.totp.secret);
      const elsewhere = await post(
        `/factors/${enrolled.id}/verify`,
        { challenge_id: challenge.id, code },
        '198.51.100.7',
      );
      expect(elsewhere.status).toBe(422);
      expect(((await elsewhere.json()) as { code: string }).code).toBe('mfa_ip_address_mismatch');
      const same = await post(
        `/factors/${enrolled.id}/verify`,
        { challenge_id: challenge.id, code },
        '203.0.113.1',
      );
      expect(same.status).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('lets only one of two concurrent verifications with the same code through', async () => {
    const user = await signedIn();
    const { data } = await user.client.mfa.enroll({ factorType: 'totp' });
    const factorId = data?.id as string;
    const secret = data?.totp?.secret as string;
    const token = user.session?.access_token as string;
    const challenge = async () =>
      (await user.client.mfa.challenge({ factorId })).data?.id as string;
    const [a, b] = [await challenge(), await challenge()];
    const code = codeFor(secret);
    const verify = (challengeId: string) =>
      fetch(`${server.authUrl}/factors/${factorId}/verify`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-supabase-api-version': '2024-01-01',
        },
        body: JSON.stringify({ challenge_id: challengeId, code }),
      });
    const statuses = (await Promise.all([verify(a), verify(b)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 422]);
  });
});
