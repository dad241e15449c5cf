import type { Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/refusals.ts';
import { audit } from './audit.repository.ts';
import type { AuthContext, RequestInfo } from './context.ts';
import { AuthError, errors } from './errors.ts';
import { beginOAuth } from './oauth/flow.ts';
import type { authorizeInput } from './oauth/oauth.routes.ts';
import type { ProviderIdentity } from './oauth/providers.ts';
import {
  deleteIdentity,
  identitiesOf,
  lockIdentity,
  lockUser,
  type UserRow,
  updateIdentity,
  updateUser,
} from './users.repository.ts';
import { insertProviderIdentity, signUpUser } from './users.service.ts';
import { findUserByEmail, isBanned } from './users.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** app_metadata.provider stays the first provider; providers lists every linked one. */
async function syncProviders(tx: Tx, user: UserRow, now: Date): Promise<UserRow> {
  const providers = [...new Set((await identitiesOf(tx, user.id)).map((row) => row.provider))];
  const first = typeof user.appMetadata.provider === 'string' ? user.appMetadata.provider : null;
  return updateUser(tx, user.id, {
    appMetadata: { ...user.appMetadata, provider: first ?? providers[0] ?? null, providers },
    updatedAt: now,
  });
}

/** A known identity signs in again: the provider's latest data. */
function refreshIdentity(tx: Tx, id: string, identity: ProviderIdentity, now: Date) {
  return updateIdentity(tx, id, {
    identityData: identity.data,
    email: identity.email,
    lastSignInAt: now,
    updatedAt: now,
  });
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
  const existing = await lockIdentity(tx, identity.provider, identity.sub);

  if (linkUserId) {
    if (existing && existing.userId !== linkUserId) return errors.identityAlreadyExists();
    const user = await lockUser(tx, linkUserId);
    if (!user) return errors.userNotFound();
    if (existing) {
      await refreshIdentity(tx, existing.id, identity, now);
      return user;
    }
    let target = user;
    if (user.isAnonymous) {
      // An anonymous user becomes a permanent one, with the provider's address if verified.
      const email = identity.email && identity.emailVerified ? identity.email : null;
      if (email && (await findUserByEmail(tx, email))) return errors.providerEmailExists();
      target = await updateUser(tx, user.id, {
        isAnonymous: false,
        ...(email ? { email, emailConfirmedAt: now } : {}),
        appMetadata: { ...user.appMetadata, provider: identity.provider },
        updatedAt: now,
      });
    }
    await insertProviderIdentity(tx, target.id, identity, now);
    await audit(tx, info, 'identity_linked', target.id, { provider: identity.provider });
    return syncProviders(tx, target, now);
  }

  if (existing) {
    await refreshIdentity(tx, existing.id, identity, now);
    const user = await lockUser(tx, existing.userId);
    if (!user) return errors.identityNotFound();
    return user;
  }

  const byEmail = identity.email ? await findUserByEmail(tx, identity.email) : undefined;
  if (byEmail) {
    if (!identity.emailVerified) return errors.providerEmailExists();
    let user = (await lockUser(tx, byEmail.id)) as UserRow;
    if (!user.emailConfirmedAt) {
      user = await updateUser(tx, user.id, {
        emailConfirmedAt: now,
        encryptedPassword: null,
        updatedAt: now,
      });
    }
    await insertProviderIdentity(tx, user.id, identity, now);
    await audit(tx, info, 'identity_linked', user.id, {
      provider: identity.provider,
      automatic: true,
    });
    return syncProviders(tx, user, now);
  }

  if (ctx.auth.disableSignup) return errors.signupDisabled();
  const user = await signUpUser(tx, info, { provider: identity, aud: ctx.auth.jwtAud, now });
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
      if (isBanned(user, ctx.clock())) return errors.userBanned();
      return then(tx, user);
    });
  try {
    return await attempt();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return attempt();
  }
}

type AuthorizeInput = Awaited<ReturnType<typeof authorizeInput>>;

/** Manual linking is GoTrue's SECURITY_MANUAL_LINKING_ENABLED, off by default. */
export function assertManualLinking(ctx: AuthContext): void {
  if (!ctx.auth.manualLinkingEnabled) throw errors.manualLinkingDisabled();
}

/**
 * GET /user/identities/authorize: the provider's address where the signed-in user links an
 * identity; the callback attaches it to them.
 */
export function linkingUrl(ctx: AuthContext, userId: string, input: AuthorizeInput) {
  return beginOAuth(ctx, input.provider, { ...input, linkUserId: userId });
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
    const identities = await identitiesOf(tx, userId);
    const target = identities.find((identity) => identity.id === identityId);
    if (!target) return errors.identityNotFound();
    if (identities.length <= 1) return errors.lastIdentity();
    await deleteIdentity(tx, target.id);
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
