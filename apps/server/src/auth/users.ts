import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { authIdentities, authUsers } from '../db/schema/auth.ts';
import type { FactorJson } from './mfa-factors.ts';

export type UserRow = typeof authUsers.$inferSelect;
export type IdentityRow = typeof authIdentities.$inferSelect;
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

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(authUsers)
    .where(
      and(sql`lower(${authUsers.email}) = ${normaliseEmail(email)}`, isNull(authUsers.deletedAt)),
    )
    .limit(1);
  return user;
}

/** The user waiting to change their address to `email`. */
export async function findUserByPendingEmail(
  db: Queryable,
  email: string,
): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(authUsers)
    .where(
      and(
        sql`lower(${authUsers.emailChange}) = ${normaliseEmail(email)}`,
        isNull(authUsers.deletedAt),
      ),
    )
    .limit(1);
  return user;
}

/** Moves a confirmed pending address into place, in the user and their email identity. */
export async function applyEmailChange(tx: Tx, user: UserRow, now: Date): Promise<UserRow> {
  const email = user.emailChange as string;
  const [updated] = await tx
    .update(authUsers)
    .set({
      email,
      emailChange: null,
      emailChangeSentAt: null,
      emailConfirmedAt: now,
      updatedAt: now,
      ...(user.isAnonymous
        ? {
            isAnonymous: false,
            appMetadata: { ...user.appMetadata, provider: 'email', providers: ['email'] },
          }
        : {}),
    })
    .where(eq(authUsers.id, user.id))
    .returning();
  const identityData = { sub: user.id, email, email_verified: true, phone_verified: false };
  const [identity] = await tx
    .update(authIdentities)
    .set({ email, identityData, updatedAt: now })
    .where(and(eq(authIdentities.userId, user.id), eq(authIdentities.provider, 'email')))
    .returning();
  if (!identity) {
    // An anonymous user gains an email identity with their first address.
    await tx.insert(authIdentities).values({
      providerId: user.id,
      userId: user.id,
      provider: 'email',
      identityData,
      email,
      createdAt: now,
      updatedAt: now,
    });
  }
  return updated as UserRow;
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(authUsers)
    .where(and(eq(authUsers.id, id), isNull(authUsers.deletedAt)))
    .limit(1);
  return user;
}

export async function identitiesOf(db: Queryable, userId: string): Promise<IdentityRow[]> {
  return db
    .select()
    .from(authIdentities)
    .where(eq(authIdentities.userId, userId))
    .orderBy(asc(authIdentities.createdAt));
}

/** A new email user and their `email` identity. */
export async function createEmailUser(
  tx: Tx,
  input: {
    email: string;
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
      email: input.email,
      encryptedPassword: input.encryptedPassword,
      emailConfirmedAt: input.confirmedAt,
      appMetadata: { provider: 'email', providers: ['email'] },
      userMetadata: input.userMetadata,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning();
  await tx.insert(authIdentities).values({
    providerId: id,
    userId: id,
    provider: 'email',
    identityData: {
      sub: id,
      email: input.email,
      email_verified: input.confirmedAt !== null,
      phone_verified: false,
    },
    email: input.email,
    createdAt: input.now,
    updatedAt: input.now,
  });
  return user as UserRow;
}

export async function createAnonymousUser(
  tx: Tx,
  input: { userMetadata: Record<string, unknown>; now: Date; aud: string },
): Promise<UserRow> {
  const [user] = await tx
    .insert(authUsers)
    .values({
      aud: input.aud,
      isAnonymous: true,
      appMetadata: {},
      userMetadata: input.userMetadata,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning();
  return user as UserRow;
}

/** Marks the email confirmed (idempotent), also in the email identity's data. */
export async function confirmEmail(tx: Tx, user: UserRow, now: Date): Promise<UserRow> {
  if (user.emailConfirmedAt) return user;
  const [updated] = await tx
    .update(authUsers)
    .set({ emailConfirmedAt: now, updatedAt: now })
    .where(eq(authUsers.id, user.id))
    .returning();
  await tx
    .update(authIdentities)
    .set({
      identityData: sql`${authIdentities.identityData} || '{"email_verified": true}'::jsonb`,
      updatedAt: now,
    })
    .where(and(eq(authIdentities.userId, user.id), eq(authIdentities.provider, 'email')));
  return updated as UserRow;
}

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

/** Replaces the stored hash (an imported bcrypt hash becomes argon2id on first use). */
export async function replacePasswordHash(tx: Tx, userId: string, hash: string): Promise<void> {
  await tx.update(authUsers).set({ encryptedPassword: hash }).where(eq(authUsers.id, userId));
}
