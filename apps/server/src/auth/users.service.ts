import { randomUUID } from 'node:crypto';
import type { Tx } from '../db/client.ts';
import { audit } from './audit.repository.ts';
import type { RequestInfo } from './context.ts';
import type { ProviderIdentity } from './oauth/providers.ts';
import {
  type Channel,
  insertIdentity,
  insertUser,
  markAddressConfirmed,
  type UserRow,
  updateChannelIdentity,
  updateUser,
} from './users.repository.ts';

/** An address a new user signs in with, confirmed or not. */
type Address = { address: string; confirmed: boolean };

export type NewUser = {
  /**
   * What the user signs in with: an email and/or a phone (the admin API may give both), each
   * its own identity; or a provider's identity (an OAuth/OIDC first sign-in); or nothing, an
   * anonymous user.
   */
  email?: Address | undefined;
  phone?: Address | undefined;
  provider?: ProviderIdentity | undefined;
  encryptedPassword?: string | null | undefined;
  /** By default the provider's profile, or nothing. */
  userMetadata?: Record<string, unknown> | undefined;
  /** The admin API's app_metadata; `provider` and `providers` are derived. */
  appMetadata?: Record<string, unknown> | undefined;
  aud: string;
  now: Date;
  // The admin API's choices; the defaults otherwise.
  id?: string | undefined;
  role?: string | undefined;
  bannedUntil?: Date | null | undefined;
};

/** GoTrue's identity_data of an email or phone identity. */
function addressIdentityData(channel: Channel, userId: string, address: string, verified: boolean) {
  return channel === 'email'
    ? { sub: userId, email: address, email_verified: verified, phone_verified: false }
    : { sub: userId, phone: address, email_verified: false, phone_verified: verified };
}

/**
 * The one way a user is created: the row, app_metadata's provider and providers, and the
 * identity rows all follow from what the user signs in with.
 */
export async function createUser(tx: Tx, input: NewUser): Promise<UserRow> {
  const { email, phone, provider, now } = input;
  const id = input.id ?? randomUUID();
  const providers = provider
    ? [provider.provider]
    : [...(email ? ['email'] : []), ...(phone ? ['phone'] : [])];
  // An address the provider has not verified stays on the identity: as the account's
  // address, its real owner could later confirm it and walk into this account.
  const providerEmail = provider?.emailVerified ? provider.email : null;
  const user = await insertUser(tx, {
    id,
    aud: input.aud,
    role: input.role,
    isAnonymous: providers.length === 0,
    email: email?.address ?? providerEmail,
    phone: phone?.address ?? null,
    encryptedPassword: input.encryptedPassword,
    emailConfirmedAt: email?.confirmed || providerEmail ? now : null,
    phoneConfirmedAt: phone?.confirmed ? now : null,
    appMetadata:
      providers.length === 0
        ? {}
        : { ...(input.appMetadata ?? {}), provider: providers[0], providers },
    userMetadata: input.userMetadata ?? provider?.data ?? {},
    bannedUntil: input.bannedUntil,
    createdAt: now,
    updatedAt: now,
  });
  if (provider) await insertProviderIdentity(tx, id, provider, now);
  for (const [channel, address] of [
    ['email', email],
    ['phone', phone],
  ] as const) {
    if (!address) continue;
    await insertIdentity(tx, {
      providerId: id,
      userId: id,
      provider: channel,
      identityData: addressIdentityData(channel, id, address.address, address.confirmed),
      ...(channel === 'email' ? { email: address.address } : {}),
      createdAt: now,
      updatedAt: now,
    });
  }
  return user;
}

/** A sign-up (not the admin API's creation): the new account and its `user_signedup` row. */
export async function signUpUser(tx: Tx, info: RequestInfo, input: NewUser): Promise<UserRow> {
  const user = await createUser(tx, input);
  const provider =
    input.provider?.provider ?? (input.email ? 'email' : input.phone ? 'phone' : 'anonymous');
  await audit(tx, info, 'user_signedup', user.id, { provider });
  return user;
}

/** A provider's identity of the user, signed in with now. */
export async function insertProviderIdentity(
  tx: Tx,
  userId: string,
  identity: ProviderIdentity,
  now: Date,
): Promise<void> {
  await insertIdentity(tx, {
    providerId: identity.sub,
    userId,
    provider: identity.provider,
    identityData: identity.data,
    email: identity.email,
    lastSignInAt: now,
    createdAt: now,
    updatedAt: now,
  });
}

/** Marks the email or phone confirmed (idempotent), also in its identity's data. */
export async function confirmAddress(
  tx: Tx,
  channel: Channel,
  user: UserRow,
  now: Date,
): Promise<UserRow> {
  const confirmedAt = channel === 'email' ? user.emailConfirmedAt : user.phoneConfirmedAt;
  if (confirmedAt) return user;
  return markAddressConfirmed(tx, channel, user.id, now);
}

/**
 * Moves a confirmed pending email or phone into place, in the user and in their identity of
 * that channel (an anonymous user gains one with their first address and stops being
 * anonymous).
 */
export async function applyAddressChange(
  tx: Tx,
  channel: Channel,
  user: UserRow,
  now: Date,
): Promise<UserRow> {
  const address = (channel === 'email' ? user.emailChange : user.phoneChange) as string;
  const providers = Array.isArray(user.appMetadata.providers)
    ? (user.appMetadata.providers as string[])
    : [];
  // A new number joins the providers; an email change leaves them as they were.
  const appMetadata = user.isAnonymous
    ? { ...user.appMetadata, provider: channel, providers: [channel] }
    : channel === 'phone' && !providers.includes('phone')
      ? { ...user.appMetadata, providers: [...providers, 'phone'] }
      : undefined;
  const updated = await updateUser(tx, user.id, {
    ...(channel === 'email'
      ? { email: address, emailChange: null, emailChangeSentAt: null, emailConfirmedAt: now }
      : { phone: address, phoneChange: null, phoneChangeSentAt: null, phoneConfirmedAt: now }),
    updatedAt: now,
    ...(appMetadata ? { appMetadata } : {}),
    ...(user.isAnonymous ? { isAnonymous: false } : {}),
  });
  const identityData = addressIdentityData(channel, user.id, address, true);
  const email = channel === 'email' ? { email: address } : {};
  const found = await updateChannelIdentity(tx, user.id, channel, {
    ...email,
    identityData,
    updatedAt: now,
  });
  if (!found) {
    await insertIdentity(tx, {
      providerId: user.id,
      userId: user.id,
      provider: channel,
      identityData,
      ...email,
      createdAt: now,
      updatedAt: now,
    });
  }
  return updated;
}
