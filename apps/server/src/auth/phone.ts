import { defaultLanguage, type Language } from '@upnext/contract/languages';
import type { Db, Tx } from '../db/client.ts';
import type { AuthContext } from './context.ts';
import { errors } from './errors.ts';
import { claimSendSlot } from './rate-limit.ts';
import { sendSms } from './sms.ts';
import { findUserByAddress, findUserByPendingAddress, type UserRow } from './users.repository.ts';
import { applyAddressChange, confirmAddress } from './users.service.ts';

type Queryable = Db | Tx;

/**
 * The one phone parser: strips a leading `+`, spaces and the usual separators, then requires
 * E.164 digits (country code first, 7 to 15 digits). Stored, compared and rate-limited in this
 * form, as GoTrue stores phones (`4915112345678`).
 */
export function normalisePhone(raw: string): string {
  return raw
    .trim()
    .replace(/^\+/, '')
    .replace(/[\s\-.()]/g, '');
}

const E164_DIGITS = /^[1-9]\d{6,14}$/;

export function parsePhone(raw: string | null | undefined): string {
  if (!raw) throw errors.validation('A phone number is required');
  const phone = normalisePhone(raw);
  if (!E164_DIGITS.test(phone)) {
    throw errors.validation('Invalid phone number format (E.164 required)');
  }
  return phone;
}

/** Phone sign-in needs an SMS path (Twilio, or the developer mailbox outside production). */
export function assertPhoneEnabled(ctx: AuthContext): void {
  if (!ctx.sms) throw errors.phoneDisabled();
}

/** GoTrue's `channel`: sms by default; WhatsApp is not offered here. */
export function assertSmsChannel(channel: string | null | undefined): void {
  if (!channel || channel === 'sms') return;
  if (channel === 'whatsapp') {
    throw errors.validation('Channel whatsapp is not supported by the configured SMS provider');
  }
  throw errors.validation("Invalid channel, supported values are 'sms' or 'whatsapp'");
}

/** The finders and changes the other auth areas use, for the phone channel. */
export const findUserByPhone = (db: Queryable, phone: string) =>
  findUserByAddress(db, 'phone', phone);

/** The user waiting to change their number to `phone`. */
export const findUserByPendingPhone = (db: Queryable, phone: string) =>
  findUserByPendingAddress(db, 'phone', phone);

/** Marks the phone confirmed (idempotent), also in the phone identity's data. */
export const confirmPhone = (tx: Tx, user: UserRow, now: Date) =>
  confirmAddress(tx, 'phone', user, now);

/** Moves a confirmed pending number into place, in the user and their phone identity. */
export const applyPhoneChange = (tx: Tx, user: UserRow, now: Date) =>
  applyAddressChange(tx, 'phone', user, now);

export type SmsKind = 'code' | 'phone_change' | 'reauthentication' | 'existing_account';

/** One language's words for every auth SMS: the one place they are written. */
type SmsTexts = {
  validity: (seconds: number) => string;
  code: (code: string, validity: string) => string;
  phone_change: (code: string, validity: string) => string;
  reauthentication: (code: string, validity: string) => string;
  existing_account: string;
};

const smsTexts: Record<Language, SmsTexts> = {
  en: {
    validity: (s) => (s < 120 ? `${s} seconds` : `${Math.round(s / 60)} minutes`),
    code: (c, v) => `UpNext: ${c} is your sign-in code. It expires in ${v}. Never share it.`,
    phone_change: (c, v) =>
      `UpNext: ${c} is your code to confirm this number. It expires in ${v}. Never share it.`,
    reauthentication: (c, v) =>
      `UpNext: ${c} is your code to confirm it is you. It expires in ${v}. Never share it.`,
    existing_account:
      'UpNext: someone tried to create an account with this number, which already has one. If it was you, sign in instead; otherwise ignore this message.',
  },
  fr: {
    validity: (s) => (s < 120 ? `${s} secondes` : `${Math.round(s / 60)} minutes`),
    code: (c, v) =>
      `UpNext : ${c} est votre code de connexion. Il expire dans ${v}. Ne le communiquez jamais.`,
    phone_change: (c, v) =>
      `UpNext : ${c} est votre code pour confirmer ce numéro. Il expire dans ${v}. Ne le communiquez jamais.`,
    reauthentication: (c, v) =>
      `UpNext : ${c} est votre code pour confirmer qu’il s’agit bien de vous. Il expire dans ${v}. Ne le communiquez jamais.`,
    existing_account:
      'UpNext : quelqu’un a essayé de créer un compte avec ce numéro, qui en a déjà un. Si c’était vous, connectez-vous plutôt ; sinon, ignorez ce message.',
  },
  ar: {
    validity: (s) => (s < 120 ? `${s} ثانية` : `${Math.round(s / 60)} دقيقة`),
    code: (c, v) => `UpNext: رمز تسجيل الدخول ${c}. تنتهي صلاحيته خلال ${v}. لا تشاركه أبدًا.`,
    phone_change: (c, v) =>
      `UpNext: رمز تأكيد هذا الرقم ${c}. تنتهي صلاحيته خلال ${v}. لا تشاركه أبدًا.`,
    reauthentication: (c, v) =>
      `UpNext: رمز تأكيد هويتك ${c}. تنتهي صلاحيته خلال ${v}. لا تشاركه أبدًا.`,
    existing_account:
      'UpNext: حاول أحدهم إنشاء حساب بهذا الرقم، وله حساب بالفعل. إن كنت أنت، فسجّل الدخول بدلًا من ذلك؛ وإلا فتجاهل هذه الرسالة.',
  },
};

/**
 * The SMS texts: short, branded, the code first, in the language of the page that asked. The
 * last line is the WebOTP form (`@host #code`), so phones offer the code for autofill on the
 * site only.
 */
export function renderAuthSms(
  kind: SmsKind,
  input: { siteUrl: string; code?: string; validSeconds?: number },
  language: Language = defaultLanguage,
): string {
  const texts = smsTexts[language];
  if (kind === 'existing_account') return texts.existing_account;
  const host = new URL(input.siteUrl).hostname;
  const code = input.code ?? '';
  const validity = texts.validity(input.validSeconds ?? 60);
  return `${texts[kind](code, validity)}\n\n@${host} #${code}`;
}

/** One SMS per number per SMS_MAX_FREQUENCY, known or not (429 over_sms_send_rate_limit). */
export async function claimSmsSlot(ctx: AuthContext, phone: string): Promise<void> {
  await claimSendSlot(ctx.db, ctx.clock, `sms:${phone}`, ctx.auth.sms.maxFrequency, (wait) =>
    errors.smsFrequency(wait),
  );
}

/** Sends an auth SMS through the shared SMS path (hourly quota, provider errors). */
export async function sendAuthSms(
  ctx: AuthContext,
  kind: SmsKind,
  phone: string,
  code: string | undefined,
  language: Language,
): Promise<void> {
  const body = renderAuthSms(
    kind,
    { siteUrl: ctx.auth.siteUrl, ...(code ? { code } : {}), validSeconds: ctx.auth.sms.otpExp },
    language,
  );
  await sendSms(ctx, phone, body);
}
