import { randomUUID } from 'node:crypto';
import { defaultLanguage, type Language } from '@upnext/contract/languages';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { authIdentities, authUsers } from '../db/schema/auth.ts';
import type { AuthContext } from './context.ts';
import { errors } from './errors.ts';
import { claimSendSlot } from './rate-limit.ts';
import { sendSms } from './sms.ts';
import type { UserRow } from './users.ts';

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

export async function findUserByPhone(db: Queryable, phone: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(authUsers)
    .where(and(eq(authUsers.phone, phone), isNull(authUsers.deletedAt)))
    .limit(1);
  return user;
}

/** The user waiting to change their number to `phone`. */
export async function findUserByPendingPhone(
  db: Queryable,
  phone: string,
): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(authUsers)
    .where(and(eq(authUsers.phoneChange, phone), isNull(authUsers.deletedAt)))
    .limit(1);
  return user;
}

function phoneIdentityData(userId: string, phone: string, verified: boolean) {
  return { sub: userId, phone, email_verified: false, phone_verified: verified };
}

/** A new phone user and their `phone` identity. */
export async function createPhoneUser(
  tx: Tx,
  input: {
    phone: string;
    encryptedPassword: string | null;
    userMetadata: Record<string, unknown>;
    confirmedAt: Date | null;
    now: Date;
    aud: string;
  },
): Promise<UserRow> {
  const id = randomUUID();
  const [user] = await tx
    .insert(authUsers)
    .values({
      id,
      aud: input.aud,
      phone: input.phone,
      encryptedPassword: input.encryptedPassword,
      phoneConfirmedAt: input.confirmedAt,
      appMetadata: { provider: 'phone', providers: ['phone'] },
      userMetadata: input.userMetadata,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning();
  await tx.insert(authIdentities).values({
    providerId: id,
    userId: id,
    provider: 'phone',
    identityData: phoneIdentityData(id, input.phone, input.confirmedAt !== null),
    createdAt: input.now,
    updatedAt: input.now,
  });
  return user as UserRow;
}

/** Marks the phone confirmed (idempotent), also in the phone identity's data. */
export async function confirmPhone(tx: Tx, user: UserRow, now: Date): Promise<UserRow> {
  if (user.phoneConfirmedAt) return user;
  const [updated] = await tx
    .update(authUsers)
    .set({ phoneConfirmedAt: now, updatedAt: now })
    .where(eq(authUsers.id, user.id))
    .returning();
  await tx
    .update(authIdentities)
    .set({
      identityData: sql`${authIdentities.identityData} || '{"phone_verified": true}'::jsonb`,
      updatedAt: now,
    })
    .where(and(eq(authIdentities.userId, user.id), eq(authIdentities.provider, 'phone')));
  return updated as UserRow;
}

/** Moves a confirmed pending number into place, in the user and their phone identity. */
export async function applyPhoneChange(tx: Tx, user: UserRow, now: Date): Promise<UserRow> {
  const phone = user.phoneChange as string;
  const providers = Array.isArray(user.appMetadata.providers)
    ? (user.appMetadata.providers as string[])
    : [];
  const [updated] = await tx
    .update(authUsers)
    .set({
      phone,
      phoneChange: null,
      phoneChangeSentAt: null,
      phoneConfirmedAt: now,
      updatedAt: now,
      appMetadata: user.isAnonymous
        ? { ...user.appMetadata, provider: 'phone', providers: ['phone'] }
        : providers.includes('phone')
          ? user.appMetadata
          : { ...user.appMetadata, providers: [...providers, 'phone'] },
      ...(user.isAnonymous ? { isAnonymous: false } : {}),
    })
    .where(eq(authUsers.id, user.id))
    .returning();
  const identityData = phoneIdentityData(user.id, phone, true);
  const [identity] = await tx
    .update(authIdentities)
    .set({ identityData, updatedAt: now })
    .where(and(eq(authIdentities.userId, user.id), eq(authIdentities.provider, 'phone')))
    .returning();
  if (!identity) {
    await tx.insert(authIdentities).values({
      providerId: user.id,
      userId: user.id,
      provider: 'phone',
      identityData,
      createdAt: now,
      updatedAt: now,
    });
  }
  return updated as UserRow;
}

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
