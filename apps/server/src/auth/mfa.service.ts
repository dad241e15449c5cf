import type { Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/refusals.ts';
import { audit } from './audit.repository.ts';
import { isUuid } from './body.ts';
import type { AuthContext, RequestInfo } from './context.ts';
import { AuthError, errors } from './errors.ts';
import type { Authenticated } from './guard.ts';
import {
  countFailedAttempt,
  deleteChallenge,
  deleteFactors,
  deleteOtherUnverified,
  type FactorRow,
  factorsOf,
  findFactor,
  insertChallenge,
  insertFactor,
  lockChallenge,
  lowerSessionsOf,
  markFactorVerified,
  setChallengeOtpHash,
} from './mfa.repository.ts';
import {
  type Answer,
  challengeCodeHash,
  type FactorType,
  factorTypes,
  isFactorType,
  type WebauthnChallengeJson,
} from './mfa-factor-types.ts';
import { lockSession } from './sessions.repository.ts';
import { elevateSession, type SessionJson, type SessionRow } from './sessions.service.ts';
import { lockUser } from './users.repository.ts';
import { findUserById } from './users.ts';

/** GoTrue's MFA (CONTRACT.md §1.8): enrolment, challenges, verification, unenrolment. */

/** Wrong codes a challenge survives; the next one deletes it (a new challenge is needed). */
const MAX_CHALLENGE_ATTEMPTS = 5;

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

/**
 * A transaction whose refusal still commits what it wrote before (a counted attempt, a
 * dropped challenge): `work` returns the refusal, thrown once committed.
 */
async function committed<T>(
  ctx: AuthContext,
  work: (tx: Tx) => Promise<T | AuthError>,
): Promise<T> {
  const outcome = await ctx.db.transaction(work);
  if (outcome instanceof AuthError) throw outcome;
  return outcome;
}

export type EnrolledFactor = {
  id: string;
  type: FactorType;
  friendly_name: string;
  [extra: string]: unknown;
};

/**
 * A new unverified factor under GoTrue's rules: a user who already has a verified factor
 * needs an aal2 session to add another; names are unique per user; at most
 * MFA_MAX_ENROLLED_FACTORS, counting neither the factors the new one replaces (abandoned
 * enrolments older than a day, an unverified enrolment of the same number) nor itself.
 */
export async function enrollFactor(
  ctx: AuthContext,
  auth: Authenticated,
  input: {
    factorType: string | undefined;
    friendlyName: string | undefined;
    issuer: string | undefined;
    phone: string | undefined;
  },
  info: RequestInfo,
): Promise<EnrolledFactor> {
  const { factorType } = input;
  if (!isFactorType(factorType)) {
    throw errors.validation('factor_type needs to be totp, phone or webauthn');
  }
  const session = requireMfaCaller(auth);
  const { user } = auth;
  const friendlyName = input.friendlyName?.trim() || null;
  const enrolment = await factorTypes[factorType].enrol(ctx, user, { ...input, friendlyName });
  const factor = await committed(ctx, async (tx) => {
    const now = ctx.clock();
    await lockUser(tx, user.id);
    const factors = await factorsOf(tx, user.id);
    if (factors.some((f) => f.status === 'verified') && session.aal !== 'aal2') {
      return errors.insufficientAal('AAL2 required to enroll a new factor');
    }
    const replaced = enrolment.replaces(factors, now);
    if (replaced instanceof AuthError) return replaced;
    await deleteFactors(
      tx,
      replaced.map((f) => f.id),
    );
    const others = factors.filter((f) => !replaced.includes(f));
    if (friendlyName && others.some((f) => f.friendlyName === friendlyName)) {
      return errors.factorNameConflict(friendlyName);
    }
    if (others.length >= ctx.auth.mfa.maxEnrolledFactors) {
      return errors.tooManyFactors();
    }
    const created = await insertFactor(
      tx,
      { userId: user.id, friendlyName, factorType, ...enrolment.values },
      now,
    );
    await audit(tx, info, 'factor_in_progress', user.id, {
      factor_id: created.id,
      factor_type: factorType,
    });
    return created;
  }).catch((error: unknown) => {
    // Two enrolments with one name that passed the check concurrently.
    if (isUniqueViolation(error) && friendlyName) throw errors.factorNameConflict(friendlyName);
    throw error;
  });
  return {
    id: factor.id,
    type: factorType,
    friendly_name: factor.friendlyName ?? '',
    ...enrolment.extra,
  };
}

type ChallengeJson = {
  id: string;
  type: FactorType;
  expires_at: number;
  webauthn?: WebauthnChallengeJson;
};

/**
 * A challenge for one of the caller's factors, bound to the caller's IP, expiring. For a
 * phone factor it texts a code; for a WebAuthn factor it carries the credential options.
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
  const { webauthn, code, deliver } = await factorTypes[factor.factorType].challenge(
    ctx,
    auth.user,
    factor,
    input,
    info,
  );
  const challenge = await ctx.db.transaction(async (tx) => {
    const now = ctx.clock();
    const expiresAt = new Date(now.getTime() + ctx.auth.mfa.challengeExpiry * 1000);
    const id = await insertChallenge(
      tx,
      {
        factorId: factor.id,
        ip: info.ip,
        webauthnChallenge: webauthn?.credential_options.publicKey.challenge ?? null,
        webauthnType: webauthn?.type ?? null,
        expiresAt,
      },
      now,
    );
    if (code) await setChallengeOtpHash(tx, id, challengeCodeHash(ctx, id, code));
    const json: ChallengeJson = {
      id,
      type: factor.factorType,
      expires_at: Math.floor(expiresAt.getTime() / 1000),
    };
    if (webauthn) json.webauthn = webauthn;
    return json;
  });
  if (deliver) {
    try {
      await deliver();
    } catch (error) {
      // Undelivered: the challenge can never be answered, so it goes.
      await deleteChallenge(ctx.db, challenge.id);
      throw error;
    }
  }
  return challenge;
}

/**
 * Checks the answer against the challenge (single use, expiring, same IP, attempt-limited)
 * and the factor (its type's check: the TOTP step, the SMS code, the WebAuthn credential),
 * then raises the same session to aal2. Runs in one transaction that commits failed
 * attempts too.
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
  return committed(ctx, async (tx) => {
    const factor = await findFactor(tx, user.id, factorId, { lock: true });
    if (!factor) return errors.factorNotFound();
    const type = factorTypes[factor.factorType];
    type.assertEnabled(ctx);
    const challenge = await lockChallenge(tx, factor.id, challengeId);
    if (!challenge) return errors.challengeExpired(challengeId);
    const now = ctx.clock();
    if (challenge.expiresAt.getTime() <= now.getTime()) {
      await deleteChallenge(tx, challenge.id);
      return errors.challengeExpired(challengeId);
    }
    if (challenge.ip !== info.ip) {
      return errors.ipAddressMismatch();
    }
    const checked = await type.check(ctx, factor, challenge, answer, now);
    if (!checked) {
      if (challenge.attempts + 1 >= MAX_CHALLENGE_ATTEMPTS) await deleteChallenge(tx, challenge.id);
      else await countFailedAttempt(tx, challenge.id);
      await audit(tx, info, 'verification_attempted', user.id, {
        factor_id: factor.id,
        ok: false,
      });
      return type.wrongAnswer();
    }
    await deleteChallenge(tx, challenge.id);
    await markFactorVerified(tx, factor.id, checked, now);
    // The first factor of a type verified: abandoned enrolments of that type go.
    if (factor.status === 'unverified') await deleteOtherUnverified(tx, factor);
    const current = await lockSession(tx, session.id);
    if (!current) {
      return errors.sessionNotFound();
    }
    const fresh = await findUserById(tx, user.id);
    return elevateSession(ctx, tx, fresh ?? user, current, factor.id, type.amr, info);
  });
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
  await deleteFactors(tx, [factor.id]);
  await lowerSessionsOf(tx, factor.id, ctx.clock());
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
  return ctx.db.transaction(async (tx) => {
    const factor = await findFactor(tx, auth.user.id, factorId, { lock: true });
    if (!factor) throw errors.factorNotFound();
    if (factor.status === 'verified' && session.aal !== 'aal2') {
      throw errors.insufficientAal('AAL2 required to unenroll verified factor');
    }
    await deleteFactor(ctx, tx, factor, info, auth.user.id);
    return { id: factor.id };
  });
}
