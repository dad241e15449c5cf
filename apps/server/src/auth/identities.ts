import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/refusals.ts';
import { authIdentities, authUsers } from '../db/schema/auth.ts';
import { audit } from './audit.ts';
import type { AuthContext, RequestInfo } from './context.ts';
import { AuthError, errors } from './errors.ts';
import type { ProviderIdentity } from './oauth/providers.ts';
import { findUserByEmail, type UserRow } from './users.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** app_metadata.provider stays the first provider; providers lists every linked one. */
async function syncProviders(tx: Tx, user: UserRow, now: Date): Promise<UserRow> {
  const rows = await tx
    .select({ provider: authIdentities.provider })
    .from(authIdentities)
    .where(eq(authIdentities.userId, user.id))
    .orderBy(asc(authIdentities.createdAt));
  const providers = [...new Set(rows.map((row) => row.provider))];
  const first = typeof user.appMetadata.provider === 'string' ? user.appMetadata.provider : null;
  const [updated] = await tx
    .update(authUsers)
    .set({
      appMetadata: { ...user.appMetadata, provider: first ?? providers[0] ?? null, providers },
      updatedAt: now,
    })
    .where(eq(authUsers.id, user.id))
    .returning();
  return updated as UserRow;
}

async function insertIdentity(tx: Tx, userId: string, identity: ProviderIdentity, now: Date) {
  await tx.insert(authIdentities).values({
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

async function lockUser(tx: Tx, id: string): Promise<UserRow | undefined> {
  const [user] = await tx.select().from(authUsers).where(eq(authUsers.id, id)).for('update');
  return user && !user.deletedAt ? user : undefined;
}

/**
 * Finds or creates the user behind a provider identity, GoTrue's linking rules:
 * - a known identity signs its user in (its data refreshed);
 * - `linkUserId` (a signed-in user linking a provider) attaches the identity to that user,
 *   unless it already belongs to someone else (identity_already_exists);
 * - otherwise an existing account with the same email is joined only when the provider says
 *   the email is verified. If that account had never confirmed its address, its password
 *   goes (whoever set it never proved the mailbox) and the address counts as confirmed;
 * - an unverified email that belongs to an account is refused (email_exists), never linked;
 * - else a new user (unless sign-ups are off), with the email only if verified.
 */
async function resolveIdentity(
  ctx: AuthContext,
  tx: Tx,
  identity: ProviderIdentity,
  info: RequestInfo,
  linkUserId: string | null,
): Promise<UserRow | AuthError> {
  const now = ctx.clock();
  const [existing] = await tx
    .select()
    .from(authIdentities)
    .where(
      and(
        eq(authIdentities.provider, identity.provider),
        eq(authIdentities.providerId, identity.sub),
      ),
    )
    .for('update');

  if (linkUserId) {
    if (existing && existing.userId !== linkUserId) return errors.identityAlreadyExists();
    const user = await lockUser(tx, linkUserId);
    if (!user) return errors.userNotFound();
    if (existing) {
      await tx
        .update(authIdentities)
        .set({
          identityData: identity.data,
          email: identity.email,
          lastSignInAt: now,
          updatedAt: now,
        })
        .where(eq(authIdentities.id, existing.id));
      return user;
    }
    let target = user;
    if (user.isAnonymous) {
      // An anonymous user becomes a permanent one, with the provider's address if verified.
      const email = identity.email && identity.emailVerified ? identity.email : null;
      if (email && (await findUserByEmail(tx, email))) return errors.providerEmailExists();
      const [upgraded] = await tx
        .update(authUsers)
        .set({
          isAnonymous: false,
          ...(email ? { email, emailConfirmedAt: now } : {}),
          appMetadata: { ...user.appMetadata, provider: identity.provider },
          updatedAt: now,
        })
        .where(eq(authUsers.id, user.id))
        .returning();
      target = upgraded as UserRow;
    }
    await insertIdentity(tx, target.id, identity, now);
    await audit(tx, info, 'identity_linked', target.id, { provider: identity.provider });
    return syncProviders(tx, target, now);
  }

  if (existing) {
    await tx
      .update(authIdentities)
      .set({
        identityData: identity.data,
        email: identity.email,
        lastSignInAt: now,
        updatedAt: now,
      })
      .where(eq(authIdentities.id, existing.id));
    const user = await lockUser(tx, existing.userId);
    if (!user) return errors.identityNotFound();
    return user;
  }

  const byEmail = identity.email ? await findUserByEmail(tx, identity.email) : undefined;
  if (byEmail) {
    if (!identity.emailVerified) return errors.providerEmailExists();
    let user = (await lockUser(tx, byEmail.id)) as UserRow;
    if (!user.emailConfirmedAt) {
      const [confirmed] = await tx
        .update(authUsers)
        .set({ emailConfirmedAt: now, encryptedPassword: null, updatedAt: now })
        .where(eq(authUsers.id, user.id))
        .returning();
      user = confirmed as UserRow;
    }
    await insertIdentity(tx, user.id, identity, now);
    await audit(tx, info, 'identity_linked', user.id, {
      provider: identity.provider,
      automatic: true,
    });
    return syncProviders(tx, user, now);
  }

  if (ctx.auth.disableSignup) return errors.signupDisabled();
  const [created] = await tx
    .insert(authUsers)
    .values({
      aud: ctx.auth.jwtAud,
      // An address the provider has not verified stays on the identity: as the account's
      // address, its real owner could later confirm it and walk into this account.
      email: identity.emailVerified ? identity.email : null,
      emailConfirmedAt: identity.email && identity.emailVerified ? now : null,
      appMetadata: { provider: identity.provider, providers: [identity.provider] },
      userMetadata: identity.data,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const user = created as UserRow;
  await insertIdentity(tx, user.id, identity, now);
  await audit(tx, info, 'user_signedup', user.id, { provider: identity.provider });
  return user;
}

/**
 * resolveIdentity in its own transaction, then `then` in the same one (a session, a flow
 * state). Two first sign-ins of one identity at once: the loser's unique violation is
 * retried once, and then finds the winner's identity.
 */
export async function withProviderIdentity<T>(
  ctx: AuthContext,
  identity: ProviderIdentity,
  info: RequestInfo,
  linkUserId: string | null,
  then: (tx: Tx, user: UserRow) => Promise<T>,
): Promise<T | AuthError> {
  const attempt = () =>
    ctx.db.transaction(async (tx) => {
      const user = await resolveIdentity(ctx, tx, identity, info, linkUserId);
      if (user instanceof AuthError) return user;
      if (user.bannedUntil && user.bannedUntil.getTime() > ctx.clock().getTime()) {
        return errors.userBanned();
      }
      return then(tx, user);
    });
  try {
    return await attempt();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return attempt();
  }
}

/** DELETE /user/identities/{id}: only one's own, never the last one. */
export async function unlinkIdentity(
  ctx: AuthContext,
  userId: string,
  identityId: string,
  info: RequestInfo,
): Promise<void> {
  if (!UUID.test(identityId)) throw errors.identityNotFound();
  const outcome = await ctx.db.transaction(async (tx) => {
    // The user row lock serialises concurrent unlinks, so two cannot remove the last two.
    const user = await lockUser(tx, userId);
    if (!user) return errors.identityNotFound();
    const identities = await tx
      .select()
      .from(authIdentities)
      .where(eq(authIdentities.userId, userId));
    const target = identities.find((identity) => identity.id === identityId);
    if (!target) return errors.identityNotFound();
    if (identities.length <= 1) return errors.lastIdentity();
    await tx.delete(authIdentities).where(eq(authIdentities.id, target.id));
    const now = ctx.clock();
    const remaining = identities.filter((identity) => identity.id !== target.id);
    const provider = user.appMetadata.provider;
    const refreshed = await syncProviders(
      tx,
      {
        ...user,
        appMetadata: {
          ...user.appMetadata,
          // The first provider moves on if it was the one unlinked and no other of its kind remains.
          provider: remaining.some((identity) => identity.provider === provider)
            ? provider
            : (remaining[0]?.provider ?? null),
        },
      },
      now,
    );
    await audit(tx, info, 'identity_unlinked', refreshed.id, { provider: target.provider });
    return undefined;
  });
  if (outcome) throw outcome;
}
