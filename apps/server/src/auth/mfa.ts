import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/refusals.ts';
import { authMfaChallenges, authMfaFactors, authSessions, authUsers } from '../db/schema/auth.ts';
import { audit } from './audit.ts';
import type { AuthContext, RequestInfo } from './context.ts';
import { hmacHex, randomCode, safeEqualHex } from './crypto.ts';
import { AuthError, errors } from './errors.ts';
import type { Authenticated } from './guard.ts';
import {
  decryptSecret,
  encryptSecret,
  type FactorRow,
  factorsOf,
  findFactor,
} from './mfa-factors.ts';
import {
  assertPhoneEnabled,
  assertSmsChannel,
  claimSmsSlot,
  parsePhone,
  sendAuthSms,
} from './phone.ts';
import { elevateSession, type SessionJson, type SessionRow } from './sessions.ts';
import {
  authenticationOptions,
  registrationOptions,
  verifyAssertion,
  verifyRegistration,
} from './webauthn.ts';

/** Wrong codes a challenge survives; the next one deletes it (a new challenge is needed). */
const MAX_CHALLENGE_ATTEMPTS = 5;
/** Unverified factors older than this are dropped at the next enrolment (abandoned QR codes). */
const STALE_UNVERIFIED_MS = 24 * 3_600_000;
const TOTP_PERIOD = 30;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && UUID.test(value);

/** MFA needs a user's own session (not an admin token) and no anonymous user. */
function requireMfaCaller(auth: Authenticated): SessionRow {
  if (auth.user.isAnonymous) {
    throw errors.anonymousNotAllowed();
  }
  if (!auth.session) {
    throw errors.sessionIdMissing();
  }
  return auth.session;
}

function totpFor(secret: string, issuer: string, label: string): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

export type EnrolledTotp = {
  id: string;
  type: 'totp';
  friendly_name: string;
  totp: { qr_code: string; secret: string; uri: string };
};

/**
 * Inserts a new unverified TOTP or WebAuthn factor under GoTrue's rules: a user who already
 * has a verified factor needs an aal2 session to add another, names are unique per user, at
 * most MFA_MAX_ENROLLED_FACTORS (abandoned enrolments older than a day are dropped first).
 */
async function insertFactor(
  ctx: AuthContext,
  auth: Authenticated,
  factor: { factorType: 'totp' | 'webauthn'; friendlyName: string | null; secret?: string },
  info: RequestInfo,
): Promise<FactorRow> {
  const session = requireMfaCaller(auth);
  const { user } = auth;
  const { friendlyName } = factor;
  const run = () =>
    ctx.db.transaction(async (tx) => {
      const now = ctx.clock();
      // One enrolment per user at a time: the count and the name check must not race.
      await tx
        .select({ id: authUsers.id })
        .from(authUsers)
        .where(eq(authUsers.id, user.id))
        .for('update');
      await tx
        .delete(authMfaFactors)
        .where(
          and(
            eq(authMfaFactors.userId, user.id),
            eq(authMfaFactors.status, 'unverified'),
            lt(authMfaFactors.createdAt, new Date(now.getTime() - STALE_UNVERIFIED_MS)),
          ),
        );
      const factors = await factorsOf(tx, user.id);
      if (factors.some((f) => f.status === 'verified') && session.aal !== 'aal2') {
        return errors.insufficientAal('AAL2 required to enroll a new factor');
      }
      if (friendlyName && factors.some((f) => f.friendlyName === friendlyName)) {
        return nameConflict(friendlyName);
      }
      if (factors.length >= ctx.auth.mfa.maxEnrolledFactors) {
        return errors.tooManyFactors();
      }
      const [row] = await tx
        .insert(authMfaFactors)
        .values({
          userId: user.id,
          friendlyName,
          factorType: factor.factorType,
          secret: factor.secret ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const created = row as FactorRow;
      await audit(tx, info, 'factor_in_progress', user.id, {
        factor_id: created.id,
        factor_type: factor.factorType,
      });
      return created;
    });
  let outcome: Awaited<ReturnType<typeof run>>;
  try {
    outcome = await run();
  } catch (error) {
    if (isUniqueViolation(error) && friendlyName) throw nameConflict(friendlyName);
    throw error;
  }
  if (outcome instanceof AuthError) throw outcome;
  return outcome;
}

/**
 * A new unverified TOTP factor: a server-generated 160-bit secret (stored encrypted), its
 * otpauth URI and that URI as an SVG QR code.
 */
export async function enrollTotp(
  ctx: AuthContext,
  auth: Authenticated,
  input: { friendlyName: string | undefined; issuer: string | undefined },
  info: RequestInfo,
): Promise<EnrolledTotp> {
  requireMfaCaller(auth);
  const { user } = auth;
  const issuer = input.issuer?.trim() || new URL(ctx.auth.siteUrl).hostname;
  const label = user.email || user.phone || user.id;
  const secret = new Secret({ size: 20 }).base32;
  const totp = totpFor(secret, issuer, label);
  const uri = totp.toString();
  const qrCode = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M' });
  const factor = await insertFactor(
    ctx,
    auth,
    {
      factorType: 'totp',
      friendlyName: input.friendlyName?.trim() || null,
      secret: encryptSecret(ctx.keys.hmacKey, secret),
    },
    info,
  );
  return {
    id: factor.id,
    type: 'totp',
    friendly_name: factor.friendlyName ?? '',
    totp: { qr_code: qrCode, secret, uri },
  };
}

/**
 * A new unverified WebAuthn factor; its credential is registered by the first challenge
 * (`create`) and its verification.
 */
export async function enrollWebauthn(
  ctx: AuthContext,
  auth: Authenticated,
  input: { friendlyName: string | undefined },
  info: RequestInfo,
): Promise<{ id: string; type: 'webauthn'; friendly_name: string }> {
  const factor = await insertFactor(
    ctx,
    auth,
    { factorType: 'webauthn', friendlyName: input.friendlyName?.trim() || null },
    info,
  );
  return { id: factor.id, type: 'webauthn', friendly_name: factor.friendlyName ?? '' };
}

/**
 * A new unverified phone factor (MFA_PHONE_ENROLL_ENABLED and an SMS path needed). A number
 * already verified as a factor is refused; an unverified enrolment of it is replaced.
 */
export async function enrollPhone(
  ctx: AuthContext,
  auth: Authenticated,
  input: { friendlyName: string | undefined; phone: string | undefined },
  info: RequestInfo,
): Promise<{ id: string; type: 'phone'; friendly_name: string; phone: string }> {
  const session = requireMfaCaller(auth);
  if (!ctx.auth.mfa.phoneEnabled) throw errors.mfaPhoneEnrollDisabled();
  assertPhoneEnabled(ctx);
  const phone = parsePhone(input.phone);
  const { user } = auth;
  const friendlyName = input.friendlyName?.trim() || null;
  const run = () =>
    ctx.db.transaction(async (tx) => {
      const now = ctx.clock();
      await tx
        .select({ id: authUsers.id })
        .from(authUsers)
        .where(eq(authUsers.id, user.id))
        .for('update');
      const factors = await factorsOf(tx, user.id);
      if (factors.some((f) => f.status === 'verified') && session.aal !== 'aal2') {
        return errors.insufficientAal('AAL2 required to enroll a new factor');
      }
      const samePhone = factors.filter((f) => f.factorType === 'phone' && f.phone === phone);
      if (samePhone.some((f) => f.status === 'verified')) {
        return errors.verifiedPhoneFactorExists();
      }
      for (const stale of samePhone) {
        await tx.delete(authMfaFactors).where(eq(authMfaFactors.id, stale.id));
      }
      const others = factors.filter((f) => !samePhone.includes(f));
      if (friendlyName && others.some((f) => f.friendlyName === friendlyName)) {
        return nameConflict(friendlyName);
      }
      if (others.length >= ctx.auth.mfa.maxEnrolledFactors) {
        return errors.tooManyFactors();
      }
      const [factor] = await tx
        .insert(authMfaFactors)
        .values({
          userId: user.id,
          friendlyName,
          factorType: 'phone',
          phone,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const created = factor as FactorRow;
      await audit(tx, info, 'factor_in_progress', user.id, {
        factor_id: created.id,
        factor_type: 'phone',
      });
      return created;
    });
  let outcome: Awaited<ReturnType<typeof run>>;
  try {
    outcome = await run();
  } catch (error) {
    if (isUniqueViolation(error) && friendlyName) throw nameConflict(friendlyName);
    throw error;
  }
  if (outcome instanceof AuthError) throw outcome;
  return { id: outcome.id, type: 'phone', friendly_name: outcome.friendlyName ?? '', phone };
}

/** The stored form of an SMS code: keyed by the challenge, so it is useless anywhere else. */
function challengeCodeHash(ctx: AuthContext, challengeId: string, code: string): string {
  return hmacHex(ctx.keys.hmacKey, `mfa-challenge:${challengeId}:${code}`);
}

const nameConflict = (name: string) => errors.factorNameConflict(name);

type ChallengeJson = {
  id: string;
  type: FactorRow['factorType'];
  expires_at: number;
  webauthn?:
    | {
        type: 'create';
        credential_options: { publicKey: PublicKeyCredentialCreationOptionsJSON };
      }
    | {
        type: 'request';
        credential_options: { publicKey: PublicKeyCredentialRequestOptionsJSON };
      };
};

/** What a WebAuthn factor's challenge asks of the authenticator: register first, then sign. */
async function webauthnChallenge(
  ctx: AuthContext,
  auth: Authenticated,
  factor: FactorRow,
): Promise<NonNullable<ChallengeJson['webauthn']>> {
  const rp = ctx.auth.webauthn;
  const credential = factor.status === 'verified' ? factor.webauthnCredential : null;
  if (credential) {
    return {
      type: 'request',
      credential_options: { publicKey: await authenticationOptions(rp, [credential]) },
    };
  }
  // The user's other WebAuthn factors: the authenticator must not register twice.
  const exclude = (await factorsOf(ctx.db, auth.user.id)).flatMap((f) =>
    f.webauthnCredential ? [f.webauthnCredential] : [],
  );
  return {
    type: 'create',
    credential_options: {
      publicKey: await registrationOptions(rp, auth.user, exclude, 'factor'),
    },
  };
}

/**
 * A challenge for one of the caller's factors, bound to the caller's IP, expiring. For a
 * phone factor it texts a code (one SMS per number per SMS_MAX_FREQUENCY); for a WebAuthn
 * factor it carries the credential options (`create` until verified, then `request`).
 */
export async function createChallenge(
  ctx: AuthContext,
  auth: Authenticated,
  factorId: string,
  input: { channel: string | undefined },
  info: RequestInfo,
): Promise<ChallengeJson> {
  requireMfaCaller(auth);
  if (!isUuid(factorId)) throw errors.factorNotFound();
  const factor = await findFactor(ctx.db, auth.user.id, factorId);
  if (!factor) throw errors.factorNotFound();
  const phone = factor.factorType === 'phone' ? factor.phone : null;
  if (factor.factorType === 'phone') {
    if (!ctx.auth.mfa.phoneEnabled) throw errors.mfaPhoneVerifyDisabled();
    assertPhoneEnabled(ctx);
    assertSmsChannel(input.channel);
    await claimSmsSlot(ctx, phone as string);
  }
  const webauthn =
    factor.factorType === 'webauthn' ? await webauthnChallenge(ctx, auth, factor) : undefined;
  const code = phone ? randomCode(ctx.auth.sms.otpLength) : null;
  const challenge = await ctx.db.transaction(async (tx) => {
    const now = ctx.clock();
    const expiresAt = new Date(now.getTime() + ctx.auth.mfa.challengeExpiry * 1000);
    const [row] = await tx
      .insert(authMfaChallenges)
      .values({
        factorId: factor.id,
        ip: info.ip,
        webauthnChallenge: webauthn?.credential_options.publicKey.challenge ?? null,
        webauthnType: webauthn?.type ?? null,
        expiresAt,
        createdAt: now,
      })
      .returning({ id: authMfaChallenges.id });
    const id = (row as { id: string }).id;
    if (code) {
      await tx
        .update(authMfaChallenges)
        .set({ otpHash: challengeCodeHash(ctx, id, code) })
        .where(eq(authMfaChallenges.id, id));
    }
    await tx
      .update(authMfaFactors)
      .set({ lastChallengedAt: now })
      .where(eq(authMfaFactors.id, factor.id));
    const json: ChallengeJson = {
      id,
      type: factor.factorType,
      expires_at: Math.floor(expiresAt.getTime() / 1000),
    };
    if (webauthn) json.webauthn = webauthn;
    return json;
  });
  if (phone && code) {
    try {
      await sendAuthSms(ctx, 'code', phone, code, info.language);
    } catch (error) {
      // Undelivered: the challenge can never be answered, so it goes.
      await ctx.db.delete(authMfaChallenges).where(eq(authMfaChallenges.id, challenge.id));
      throw error;
    }
  }
  return challenge;
}

type ChallengeRow = typeof authMfaChallenges.$inferSelect;
type Answer = {
  code: string;
  webauthn: { type: string | undefined; response: unknown } | undefined;
};
/** The factor's new state after a right answer, or null for a wrong one. */
type Checked = Partial<Pick<FactorRow, 'lastUsedStep' | 'webauthnCredential'>> | null;

/** Checks the answer to a challenge against the factor: a TOTP or SMS code, or a WebAuthn response. */
async function checkAnswer(
  ctx: AuthContext,
  factor: FactorRow,
  challenge: ChallengeRow,
  answer: Answer,
  now: Date,
): Promise<Checked> {
  if (factor.factorType === 'totp') {
    const step = acceptedStep(ctx, factor, answer.code, now);
    return step === null ? null : { lastUsedStep: step };
  }
  if (factor.factorType === 'phone') {
    const ok =
      challenge.otpHash !== null &&
      /^\d{6,10}$/.test(answer.code) &&
      safeEqualHex(challenge.otpHash, challengeCodeHash(ctx, challenge.id, answer.code));
    return ok ? {} : null;
  }
  const expected = challenge.webauthnChallenge;
  if (!answer.webauthn || !expected || answer.webauthn.type !== challenge.webauthnType) {
    return null;
  }
  const rp = ctx.auth.webauthn;
  if (challenge.webauthnType === 'create') {
    const created = await verifyRegistration(rp, answer.webauthn.response, expected);
    return created
      ? {
          webauthnCredential: {
            id: created.id,
            publicKey: created.publicKey,
            counter: created.counter,
            transports: created.transports,
          },
        }
      : null;
  }
  const stored = factor.webauthnCredential;
  if (!stored) return null;
  const counter = await verifyAssertion(rp, answer.webauthn.response, expected, stored);
  return counter === null ? null : { webauthnCredential: { ...stored, counter } };
}

const wrongAnswer: Record<FactorRow['factorType'], () => AuthError> = {
  totp: () => errors.totpCodeWrong(),
  phone: () => errors.phoneCodeWrong(),
  webauthn: () => errors.webauthnAnswerWrong(),
};

const amrMethod: Record<FactorRow['factorType'], string> = {
  totp: 'totp',
  phone: 'mfa/phone',
  webauthn: 'mfa/webauthn',
};

/**
 * Checks the answer against the challenge (single use, expiring, same IP, attempt-limited)
 * and the factor (the SMS code; the TOTP secret, ±1 time step, never a step at or before the
 * last one accepted, so a code cannot be replayed; the WebAuthn credential, whose counter
 * must grow), then raises the same session to aal2. Runs in one transaction that commits
 * failed attempts too.
 */
export async function verifyChallenge(
  ctx: AuthContext,
  auth: Authenticated,
  factorId: string,
  input: {
    challengeId: string | undefined;
    code: string | undefined;
    webauthn?: { type: string | undefined; response: unknown } | undefined;
  },
  info: RequestInfo,
): Promise<SessionJson> {
  const session = requireMfaCaller(auth);
  const { user } = auth;
  if (!isUuid(factorId)) throw errors.factorNotFound();
  const challengeId: string = input.challengeId ?? '';
  if (!isUuid(challengeId)) throw errors.challengeExpired(String(challengeId).slice(0, 40));
  const answer: Answer = { code: (input.code ?? '').trim(), webauthn: input.webauthn };
  const outcome = await ctx.db.transaction(async (tx) => {
    const factor = await findFactor(tx, user.id, factorId, { lock: true });
    if (!factor) return errors.factorNotFound();
    if (factor.factorType === 'phone' && !ctx.auth.mfa.phoneEnabled) {
      return errors.mfaPhoneVerifyDisabled();
    }
    const [challenge] = await tx
      .select()
      .from(authMfaChallenges)
      .where(and(eq(authMfaChallenges.id, challengeId), eq(authMfaChallenges.factorId, factor.id)))
      .for('update');
    if (!challenge) return errors.challengeExpired(challengeId);
    const now = ctx.clock();
    if (challenge.expiresAt.getTime() <= now.getTime()) {
      await tx.delete(authMfaChallenges).where(eq(authMfaChallenges.id, challenge.id));
      return errors.challengeExpired(challengeId);
    }
    if (challenge.ip !== info.ip) {
      return errors.ipAddressMismatch();
    }
    const checked = await checkAnswer(ctx, factor, challenge, answer, now);
    if (!checked) {
      await failAttempt(tx, challenge.id, challenge.attempts);
      await audit(tx, info, 'verification_attempted', user.id, {
        factor_id: factor.id,
        ok: false,
      });
      return wrongAnswer[factor.factorType]();
    }
    await tx.delete(authMfaChallenges).where(eq(authMfaChallenges.id, challenge.id));
    await tx
      .update(authMfaFactors)
      .set({ status: 'verified', ...checked, updatedAt: now })
      .where(eq(authMfaFactors.id, factor.id));
    if (factor.status === 'unverified') {
      // The first factor of a type verified: abandoned enrolments of that type go.
      await tx
        .delete(authMfaFactors)
        .where(
          and(
            eq(authMfaFactors.userId, user.id),
            eq(authMfaFactors.factorType, factor.factorType),
            eq(authMfaFactors.status, 'unverified'),
            ne(authMfaFactors.id, factor.id),
          ),
        );
    }
    const [current] = await tx
      .select()
      .from(authSessions)
      .where(eq(authSessions.id, session.id))
      .for('update');
    if (!current) {
      return errors.sessionNotFound();
    }
    const [fresh] = await tx.select().from(authUsers).where(eq(authUsers.id, user.id));
    return elevateSession(
      ctx,
      tx,
      fresh ?? user,
      current,
      factor.id,
      amrMethod[factor.factorType],
      info,
    );
  });
  if (outcome instanceof AuthError) throw outcome;
  return outcome;
}

/** The TOTP time step `code` belongs to, if valid now and newer than the last one used. */
function acceptedStep(ctx: AuthContext, factor: FactorRow, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code) || !factor.secret) return null;
  const secret = decryptSecret(ctx.keys.hmacKey, factor.secret);
  const totp = totpFor(secret, 'x', 'x');
  const timestamp = now.getTime();
  const delta = totp.validate({ token: code, timestamp, window: 1 });
  if (delta === null) return null;
  const step = totp.counter({ timestamp }) + delta;
  if (factor.lastUsedStep !== null && step <= factor.lastUsedStep) return null;
  return step;
}

async function failAttempt(tx: Tx, challengeId: string, attempts: number): Promise<void> {
  if (attempts + 1 >= MAX_CHALLENGE_ATTEMPTS) {
    await tx.delete(authMfaChallenges).where(eq(authMfaChallenges.id, challengeId));
    return;
  }
  await tx
    .update(authMfaChallenges)
    .set({ attempts: sql`${authMfaChallenges.attempts} + 1` })
    .where(eq(authMfaChallenges.id, challengeId));
}

/**
 * Removes a factor; a verified one only from an aal2 session (or by an admin). Sessions
 * raised with it fall back to aal1 at their next refresh.
 */
export async function deleteFactor(
  ctx: AuthContext,
  tx: Tx,
  factor: FactorRow,
  info: RequestInfo,
  actor: string | null,
): Promise<void> {
  await tx.delete(authMfaFactors).where(eq(authMfaFactors.id, factor.id));
  await tx
    .update(authSessions)
    .set({
      aal: 'aal1',
      factorId: null,
      amr: sql`coalesce((select jsonb_agg(e) from jsonb_array_elements(${authSessions.amr}) e where e->>'method' not in ('totp', 'mfa/phone', 'mfa/webauthn')), '[]'::jsonb)`,
      updatedAt: ctx.clock(),
    })
    .where(eq(authSessions.factorId, factor.id));
  await audit(tx, info, 'factor_unenrolled', factor.userId, {
    factor_id: factor.id,
    factor_type: factor.factorType,
    by: actor,
  });
}

export async function unenroll(
  ctx: AuthContext,
  auth: Authenticated,
  factorId: string,
  info: RequestInfo,
): Promise<{ id: string }> {
  const session = requireMfaCaller(auth);
  if (!isUuid(factorId)) throw errors.factorNotFound();
  const outcome = await ctx.db.transaction(async (tx) => {
    const factor = await findFactor(tx, auth.user.id, factorId, { lock: true });
    if (!factor) return errors.factorNotFound();
    if (factor.status === 'verified' && session.aal !== 'aal2') {
      return errors.insufficientAal('AAL2 required to unenroll verified factor');
    }
    await deleteFactor(ctx, tx, factor, info, auth.user.id);
    return { id: factor.id };
  });
  if (outcome instanceof AuthError) throw outcome;
  return outcome;
}
