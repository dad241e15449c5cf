import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../db/client.ts';
import type { FactorJson } from './mfa-factors.ts';
import {
  findUserByAddress,
  findUserByPendingAddress,
  type IdentityRow,
  type UserRow,
} from './users.repository.ts';
import { applyAddressChange, confirmAddress } from './users.service.ts';

export { findUserById, type IdentityRow, identitiesOf, type UserRow } from './users.repository.ts';

type Queryable = Db | Tx;

/** Lower-cased and trimmed: the one form addresses are stored, compared and rate-limited in. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

// Deliberately simple (the HTML5 rule, as GoTrue's): a mailbox is proven by the email itself.
const EMAIL_PATTERN =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

export function isValidEmail(email: string): boolean {
  return email.length <= 255 && EMAIL_PATTERN.test(email);
}

/** The finders and changes the other auth areas use, for the email channel. */
export const findUserByEmail = (db: Queryable, email: string) =>
  findUserByAddress(db, 'email', normaliseEmail(email));

/** The user waiting to change their address to `email`. */
export const findUserByPendingEmail = (db: Queryable, email: string) =>
  findUserByPendingAddress(db, 'email', normaliseEmail(email));

/** Marks the email confirmed (idempotent), also in the email identity's data. */
export const confirmEmail = (tx: Tx, user: UserRow, now: Date) =>
  confirmAddress(tx, 'email', user, now);

/** Moves a confirmed pending address into place, in the user and their email identity. */
export const applyEmailChange = (tx: Tx, user: UserRow, now: Date) =>
  applyAddressChange(tx, 'email', user, now);

export function isBanned(user: UserRow, now: Date): boolean {
  return user.bannedUntil !== null && user.bannedUntil.getTime() > now.getTime();
}

const iso = (value: Date | null) => (value ? value.toISOString() : undefined);

function identityJson(identity: IdentityRow) {
  return {
    identity_id: identity.id,
    id: identity.providerId,
    user_id: identity.userId,
    identity_data: identity.identityData,
    provider: identity.provider,
    ...(identity.email ? { email: identity.email } : {}),
    last_sign_in_at: iso(identity.lastSignInAt) ?? null,
    created_at: identity.createdAt.toISOString(),
    updated_at: identity.updatedAt.toISOString(),
  };
}

/** GoTrue's User JSON: optional timestamps (and factors) only when set; never a secret. */
export function userJson(user: UserRow, identities: IdentityRow[], factors: FactorJson[] = []) {
  const confirmedAt = [user.emailConfirmedAt, user.phoneConfirmedAt]
    .filter((value): value is Date => value !== null)
    .sort((a, b) => a.getTime() - b.getTime())[0];
  const optional: Record<string, string> = {};
  const add = (key: string, value: Date | string | null) => {
    if (value === null || value === '') return;
    optional[key] = value instanceof Date ? value.toISOString() : value;
  };
  add('email_confirmed_at', user.emailConfirmedAt);
  add('phone_confirmed_at', user.phoneConfirmedAt);
  add('confirmed_at', confirmedAt ?? null);
  add('confirmation_sent_at', user.confirmationSentAt);
  add('recovery_sent_at', user.recoverySentAt);
  add('new_email', user.emailChange);
  add('email_change_sent_at', user.emailChangeSentAt);
  add('new_phone', user.phoneChange);
  add('phone_change_sent_at', user.phoneChangeSentAt);
  add('reauthentication_sent_at', user.reauthenticationSentAt);
  add('invited_at', user.invitedAt);
  add('last_sign_in_at', user.lastSignInAt);
  add('banned_until', user.bannedUntil);
  add('deleted_at', user.deletedAt);
  return {
    id: user.id,
    aud: user.aud,
    role: user.role,
    email: user.email ?? '',
    phone: user.phone ?? '',
    ...optional,
    app_metadata: user.appMetadata,
    user_metadata: user.userMetadata,
    identities: identities.map(identityJson),
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
    is_anonymous: user.isAnonymous,
    ...(factors.length > 0 ? { factors } : {}),
  };
}

export type UserJson = ReturnType<typeof userJson>;

/**
 * The answer to a sign-up for an address that already has a confirmed account (autoconfirm
 * off): shaped like a real new user, with a random id, no role and no identities.
 */
export function fakeUserJson(email: string, userMetadata: Record<string, unknown>, now: Date) {
  const at = now.toISOString();
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: '',
    email,
    phone: '',
    confirmation_sent_at: at,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: userMetadata,
    identities: [],
    created_at: at,
    updated_at: at,
    is_anonymous: false,
  };
}
