import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { Secret, TOTP } from 'otpauth';
import type { AuthContext, RequestInfo } from './context.ts';
import { hmacHex, randomCode, safeEqualHex } from './crypto.ts';
import { type AuthError, errors } from './errors.ts';
import { type FactorRow, factorsOf, type MfaChallengeRow } from './mfa.repository.ts';
import { decryptSecret, encryptSecret } from './mfa-factors.ts';
import {
  assertPhoneEnabled,
  assertSmsChannel,
  claimSmsSlot,
  parsePhone,
  sendAuthSms,
} from './phone.ts';
import type { UserRow } from './users.ts';
import {
  authenticationOptions,
  registrationOptions,
  verifyAssertion,
  verifyRegistration,
} from './webauthn.ts';

/**
 * What differs between TOTP, phone and WebAuthn factors; mfa.service.ts runs the one flow of
 * enrolment, challenge and verification that they share.
 */

/** Unverified factors older than this are dropped at the next enrolment (abandoned QR codes). */
const STALE_UNVERIFIED_MS = 24 * 3_600_000;
const TOTP_PERIOD = 30;

export type FactorType = FactorRow['factorType'];

type EnrolInput = {
  friendlyName: string | null;
  issuer: string | undefined;
  phone: string | undefined;
};

/** A new factor of one type, prepared before its row is stored. */
type Enrolment = {
  values: Partial<Pick<FactorRow, 'secret' | 'phone'>>;
  /** The user's factors this one replaces (deleted first), or why it is refused. */
  replaces(factors: FactorRow[], now: Date): FactorRow[] | AuthError;
  /** What GoTrue answers beside id, type and friendly_name. */
  extra: Record<string, unknown>;
};

export type WebauthnChallengeJson =
  | { type: 'create'; credential_options: { publicKey: PublicKeyCredentialCreationOptionsJSON } }
  | { type: 'request'; credential_options: { publicKey: PublicKeyCredentialRequestOptionsJSON } };

/** What a challenge carries beyond its id: WebAuthn options, an SMS code to send. */
type PreparedChallenge = {
  webauthn?: WebauthnChallengeJson;
  code?: string;
  /** Delivers the code once the challenge is stored; a failure deletes the challenge. */
  deliver?: () => Promise<void>;
};

export type Answer = {
  code: string;
  webauthn: { type: string | undefined; response: unknown } | undefined;
};
/** The factor's new state after a right answer, or null for a wrong one. */
type Checked = Partial<Pick<FactorRow, 'lastUsedStep' | 'webauthnCredential'>> | null;

type Kind = {
  /** The method a verification adds to the session's amr. */
  amr: string;
  wrongAnswer: () => AuthError;
  enrol(ctx: AuthContext, user: UserRow, input: EnrolInput): Promise<Enrolment>;
  /** Refuses challenges and verifications while the type is switched off. */
  assertEnabled(ctx: AuthContext): void;
  challenge(
    ctx: AuthContext,
    user: UserRow,
    factor: FactorRow,
    input: { channel: string | undefined },
    info: RequestInfo,
  ): Promise<PreparedChallenge>;
  check(
    ctx: AuthContext,
    factor: FactorRow,
    challenge: MfaChallengeRow,
    answer: Answer,
    now: Date,
  ): Promise<Checked>;
};

/** TOTP and WebAuthn enrolments first drop the user's abandoned ones. */
const staleEnrolments = (factors: FactorRow[], now: Date) =>
  factors.filter(
    (f) => f.status === 'unverified' && f.createdAt.getTime() < now.getTime() - STALE_UNVERIFIED_MS,
  );

const always = () => {};

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

/** The stored form of an SMS code: keyed by the challenge, so it is useless anywhere else. */
export function challengeCodeHash(ctx: AuthContext, challengeId: string, code: string): string {
  return hmacHex(ctx.keys.hmacKey, `mfa-challenge:${challengeId}:${code}`);
}

const totp: Kind = {
  amr: 'totp',
  wrongAnswer: () => errors.totpCodeWrong(),
  /**
   * A server-generated 160-bit secret (stored encrypted), its otpauth URI and that URI as an
   * SVG QR code.
   */
  async enrol(ctx, user, input) {
    const issuer = input.issuer?.trim() || new URL(ctx.auth.siteUrl).hostname;
    const secret = new Secret({ size: 20 }).base32;
    const uri = totpFor(secret, issuer, user.email || user.phone || user.id).toString();
    // Loaded on the first enrolment: qrcode with pngjs is ~57 modules that a start skips.
    const { default: QRCode } = await import('qrcode');
    const qrCode = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M' });
    return {
      values: { secret: encryptSecret(ctx.keys.hmacKey, secret) },
      replaces: staleEnrolments,
      extra: { totp: { qr_code: qrCode, secret, uri } },
    };
  },
  assertEnabled: always,
  challenge: async () => ({}),
  /** ±1 time step, never a step at or before the last one accepted (no replay). */
  async check(ctx, factor, _challenge, answer, now) {
    const step = acceptedStep(ctx, factor, answer.code, now);
    return step === null ? null : { lastUsedStep: step };
  },
};

const phone: Kind = {
  amr: 'mfa/phone',
  wrongAnswer: () => errors.phoneCodeWrong(),
  /**
   * MFA_PHONE_ENROLL_ENABLED and an SMS path needed. A number already verified as a factor
   * is refused; an unverified enrolment of it is replaced.
   */
  async enrol(ctx, _user, input) {
    if (!ctx.auth.mfa.phoneEnabled) throw errors.mfaPhoneEnrollDisabled();
    assertPhoneEnabled(ctx);
    const number = parsePhone(input.phone);
    return {
      values: { phone: number },
      replaces(factors) {
        const same = factors.filter((f) => f.factorType === 'phone' && f.phone === number);
        return same.some((f) => f.status === 'verified')
          ? errors.verifiedPhoneFactorExists()
          : same;
      },
      extra: { phone: number },
    };
  },
  assertEnabled(ctx) {
    if (!ctx.auth.mfa.phoneEnabled) throw errors.mfaPhoneVerifyDisabled();
  },
  /** Texts a code: one SMS per number per SMS_MAX_FREQUENCY. */
  async challenge(ctx, _user, factor, input, info) {
    phone.assertEnabled(ctx);
    assertPhoneEnabled(ctx);
    assertSmsChannel(input.channel);
    const number = factor.phone as string;
    await claimSmsSlot(ctx, number);
    const code = randomCode(ctx.auth.sms.otpLength);
    return {
      code,
      deliver: () => sendAuthSms(ctx, 'code', number, code, info.language),
    };
  },
  async check(ctx, _factor, challenge, answer) {
    const ok =
      challenge.otpHash !== null &&
      /^\d{6,10}$/.test(answer.code) &&
      safeEqualHex(challenge.otpHash, challengeCodeHash(ctx, challenge.id, answer.code));
    return ok ? {} : null;
  },
};

const webauthn: Kind = {
  amr: 'mfa/webauthn',
  wrongAnswer: () => errors.webauthnAnswerWrong(),
  /** Its credential is registered by the first challenge (`create`) and its verification. */
  enrol: async () => ({ values: {}, replaces: staleEnrolments, extra: {} }),
  assertEnabled: always,
  /** Register first (`create`), then sign (`request`). */
  async challenge(ctx, user, factor) {
    const rp = ctx.auth.webauthn;
    const credential = factor.status === 'verified' ? factor.webauthnCredential : null;
    if (credential) {
      return {
        webauthn: {
          type: 'request',
          credential_options: { publicKey: await authenticationOptions(rp, [credential]) },
        },
      };
    }
    // The user's other WebAuthn factors: the authenticator must not register twice.
    const exclude = (await factorsOf(ctx.db, user.id)).flatMap((f) =>
      f.webauthnCredential ? [f.webauthnCredential] : [],
    );
    return {
      webauthn: {
        type: 'create',
        credential_options: {
          publicKey: await registrationOptions(rp, user, exclude, 'factor'),
        },
      },
    };
  },
  /** A registration, or an assertion of the stored credential whose counter must grow. */
  async check(ctx, factor, challenge, answer) {
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
  },
};

export const factorTypes: Record<FactorType, Kind> = { totp, phone, webauthn };

export function isFactorType(value: unknown): value is FactorType {
  return value === 'totp' || value === 'phone' || value === 'webauthn';
}
