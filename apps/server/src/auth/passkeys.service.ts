import type { Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/refusals.ts';
import { loadUser } from './admin.service.ts';
import { audit } from './audit.repository.ts';
import { isUuid } from './body.ts';
import type { AuthContext, RequestInfo } from './context.ts';
import { errors } from './errors.ts';
import type { Authenticated } from './guard.ts';
import { hasVerifiedFactor } from './mfa.repository.ts';
import {
  consumeChallenge,
  countPasskeys,
  deletePasskey,
  findPasskey,
  findPasskeyByCredentialId,
  insertChallenge,
  insertPasskey,
  type PasskeyRow,
  passkeysOf,
  recordPasskeyUse,
  renamePasskey,
} from './passkeys.repository.ts';
import { type SessionJson, startSession } from './sessions.service.ts';
import { lockUser } from './users.repository.ts';
import { findUserById, isBanned } from './users.ts';
import {
  assertionCredentialId,
  authenticationOptions,
  registrationOptions,
  userIdFromHandle,
  verifyAssertion,
  verifyRegistration,
} from './webauthn.ts';

/** Passkeys (GoTrue's /passkeys endpoints): discoverable credentials that sign a user in. */

/** GoTrue's name for a new passkey (it would name known authenticator models; we do not). */
const DEFAULT_NAME = 'Passkey';
const NAME_MAX = 120;

type CeremonyInput = { challengeId: string | undefined; credential: unknown };

/** GoTrue's passkey JSON (the lists, a rename's answer). */
function passkeyJson(row: PasskeyRow) {
  return {
    id: row.id,
    friendly_name: row.friendlyName,
    created_at: row.createdAt.toISOString(),
    ...(row.lastUsedAt ? { last_used_at: row.lastUsedAt.toISOString() } : {}),
  };
}

/**
 * With a verified MFA factor, adding or removing a passkey (a way in) needs an aal2 session;
 * without one the user cannot reach aal2, so nothing more is asked (GoTrue's rule).
 */
async function requireManagementAal(ctx: AuthContext, auth: Authenticated): Promise<void> {
  if (auth.session?.aal === 'aal2') return;
  if (await hasVerifiedFactor(ctx.db, auth.user.id)) {
    throw errors.insufficientAal(
      'AAL2 session is required to manage passkeys when MFA is enabled',
      403,
    );
  }
}

function requireCeremony(input: CeremonyInput): string {
  if (!input.challengeId) throw errors.validation('challenge_id is required');
  if (input.credential === undefined || input.credential === null) {
    throw errors.validation('credential is required');
  }
  if (!isUuid(input.challengeId)) throw errors.validation('challenge_id must be a valid UUID');
  return input.challengeId;
}

function expiry(ctx: AuthContext): Date {
  return new Date(ctx.clock().getTime() + ctx.auth.webauthn.challengeExpiry * 1000);
}

export async function startRegistration(ctx: AuthContext, auth: Authenticated) {
  await requireManagementAal(ctx, auth);
  const existing = await passkeysOf(ctx.db, auth.user.id);
  if (existing.length >= ctx.auth.webauthn.maxPasskeys) throw errors.tooManyPasskeys();
  const options = await registrationOptions(
    ctx.auth.webauthn,
    auth.user,
    existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    'passkey',
  );
  const expiresAt = expiry(ctx);
  const challengeId = await insertChallenge(
    ctx.db,
    { userId: auth.user.id, type: 'registration', challenge: options.challenge, expiresAt },
    ctx.clock(),
  );
  return { challenge_id: challengeId, options, expires_at: Math.floor(expiresAt.getTime() / 1000) };
}

export async function finishRegistration(
  ctx: AuthContext,
  auth: Authenticated,
  input: CeremonyInput,
  info: RequestInfo,
) {
  await requireManagementAal(ctx, auth);
  const challengeId = requireCeremony(input);
  const { user } = auth;
  const challenge = await consumeChallenge(ctx.db, challengeId, 'registration', user.id);
  if (!challenge) throw errors.webauthnChallengeNotFound();
  if (challenge.expiresAt.getTime() <= ctx.clock().getTime()) {
    throw errors.webauthnChallengeExpired();
  }
  const credential = await verifyRegistration(
    ctx.auth.webauthn,
    input.credential,
    challenge.challenge,
  );
  if (!credential) throw errors.webauthnVerificationFailed();
  let row: PasskeyRow;
  try {
    row = await ctx.db.transaction(async (tx) => {
      // Concurrent registrations of one user are counted one after the other.
      await lockUser(tx, user.id);
      if ((await countPasskeys(tx, user.id)) >= ctx.auth.webauthn.maxPasskeys) {
        throw errors.tooManyPasskeys();
      }
      const created = await insertPasskey(tx, user.id, credential, DEFAULT_NAME, ctx.clock());
      await audit(tx, info, 'passkey_created', user.id, { passkey_id: created.id });
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw errors.webauthnCredentialExists();
    }
    throw error;
  }
  return { id: row.id, friendly_name: row.friendlyName, created_at: row.createdAt.toISOString() };
}

export async function startAuthentication(ctx: AuthContext) {
  const options = await authenticationOptions(ctx.auth.webauthn, []);
  const expiresAt = expiry(ctx);
  const challengeId = await insertChallenge(
    ctx.db,
    { userId: null, type: 'authentication', challenge: options.challenge, expiresAt },
    ctx.clock(),
  );
  return { challenge_id: challengeId, options, expires_at: Math.floor(expiresAt.getTime() / 1000) };
}

/**
 * A discoverable sign-in: the assertion names its credential (and its user handle must be
 * that credential's user); a valid signature with a grown counter starts an aal1 session
 * whose amr says `passkey`.
 */
export async function finishAuthentication(
  ctx: AuthContext,
  input: CeremonyInput,
  info: RequestInfo,
): Promise<SessionJson> {
  const challengeId = requireCeremony(input);
  const challenge = await consumeChallenge(ctx.db, challengeId, 'authentication', null);
  if (!challenge) throw errors.webauthnChallengeNotFound();
  if (challenge.expiresAt.getTime() <= ctx.clock().getTime()) {
    throw errors.webauthnChallengeExpired();
  }
  const credentialId = assertionCredentialId(input.credential);
  const passkey = credentialId ? await findPasskeyByCredentialId(ctx.db, credentialId) : undefined;
  if (!passkey) throw errors.webauthnVerificationFailed();
  const handle = (input.credential as { response?: { userHandle?: unknown } }).response?.userHandle;
  if (handle !== undefined && handle !== null && userIdFromHandle(handle) !== passkey.userId) {
    throw errors.webauthnVerificationFailed();
  }
  const newCounter = await verifyAssertion(
    ctx.auth.webauthn,
    input.credential,
    challenge.challenge,
    {
      id: passkey.credentialId,
      publicKey: passkey.publicKey,
      counter: passkey.signCount,
      transports: passkey.transports,
    },
  );
  if (newCounter === null) throw errors.webauthnVerificationFailed();
  const user = await findUserById(ctx.db, passkey.userId);
  if (!user) throw errors.webauthnVerificationFailed();
  if (user.email && !user.emailConfirmedAt) {
    throw errors.passkeyEmailNotConfirmed();
  }
  if (user.phone && !user.phoneConfirmedAt) {
    throw errors.passkeyPhoneNotConfirmed();
  }
  if (isBanned(user, ctx.clock())) throw errors.userBanned(403);
  return ctx.db.transaction(async (tx) => {
    // Conditional on the counter read above: one assertion signs in once.
    if (!(await recordPasskeyUse(tx, passkey, newCounter, ctx.clock()))) {
      throw errors.webauthnVerificationFailed();
    }
    return startSession(ctx, tx, user, 'passkey', info);
  });
}

export async function listPasskeys(ctx: AuthContext, auth: Authenticated) {
  return (await passkeysOf(ctx.db, auth.user.id)).map(passkeyJson);
}

export async function updatePasskey(
  ctx: AuthContext,
  auth: Authenticated,
  id: string,
  friendlyName: string | undefined,
  info: RequestInfo,
) {
  const name = friendlyName?.trim() ?? '';
  if (!name) throw errors.validation('friendly_name is required');
  if ([...name].length > NAME_MAX) {
    throw errors.validation(`friendly_name must be ${NAME_MAX} characters or less`);
  }
  const passkey = isUuid(id) ? await findPasskey(ctx.db, auth.user.id, id) : undefined;
  if (!passkey) throw errors.passkeyNotFound();
  const renamed = await renamePasskey(ctx.db, passkey, name, ctx.clock());
  await audit(ctx.db, info, 'passkey_updated', auth.user.id, { passkey_id: passkey.id });
  return passkeyJson(renamed);
}

export async function removePasskey(
  ctx: AuthContext,
  auth: Authenticated,
  id: string,
  info: RequestInfo,
): Promise<void> {
  await requireManagementAal(ctx, auth);
  const passkey = isUuid(id) ? await findPasskey(ctx.db, auth.user.id, id) : undefined;
  if (!passkey) throw errors.passkeyNotFound();
  await ctx.db.transaction((tx) => deleteAudited(tx, passkey, info));
}

async function deleteAudited(
  tx: Tx,
  passkey: PasskeyRow,
  info: RequestInfo,
  traits: Record<string, unknown> = {},
): Promise<void> {
  await deletePasskey(tx, passkey.id);
  await audit(tx, info, 'passkey_deleted', passkey.userId, { passkey_id: passkey.id, ...traits });
}

/** GET /admin/users/{id}/passkeys: a user's passkeys, for a service-role caller. */
export async function listUserPasskeys(ctx: AuthContext, userId: string) {
  const user = await loadUser(ctx, userId);
  return (await passkeysOf(ctx.db, user.id)).map(passkeyJson);
}

/** DELETE /admin/users/{id}/passkeys/{passkeyId}: the passkey no longer signs the user in. */
export async function deleteUserPasskey(
  ctx: AuthContext,
  userId: string,
  passkeyId: string,
  info: RequestInfo,
): Promise<void> {
  const user = await loadUser(ctx, userId);
  const passkey = isUuid(passkeyId) ? await findPasskey(ctx.db, user.id, passkeyId) : undefined;
  if (!passkey) throw errors.passkeyNotFound();
  // `by: null` marks an admin's removal, as factor_unenrolled does.
  await ctx.db.transaction((tx) => deleteAudited(tx, passkey, info, { by: null }));
}
