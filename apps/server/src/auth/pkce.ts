import { createHash, timingSafeEqual } from 'node:crypto';
import type { Tx } from '../db/client.ts';
import type { AuthContext, RequestInfo } from './context.ts';
import { randomToken, sha256Hex } from './crypto.ts';
import { AuthError, errors } from './errors.ts';
import {
  deleteFlowState,
  deleteUnfinishedFlowStates,
  insertFlowState,
  lockFlowStateByAuthCode,
  lockUnfinishedFlowState,
  setAuthCode,
} from './flow-states.repository.ts';
import { openProviderToken } from './oauth/provider-tokens.ts';
import { type SessionJson, startSession } from './sessions.service.ts';
import { findUserById, isBanned } from './users.ts';

/** How long an auth code may wait for its exchange (GoTrue's default). */
const FLOW_STATE_TTL_SECONDS = 300;

export type Pkce = { challenge: string; method: 's256' | 'plain' };

const CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * Reads `code_challenge` and `code_challenge_method` (both or neither). Only S256: `plain`
 * would put the secret in the email flow's first request, and auth-js uses it only where
 * WebCrypto is missing.
 */
export function pkceFromBody(body: {
  code_challenge?: string | null | undefined;
  code_challenge_method?: string | null | undefined;
}): Pkce | undefined {
  const challenge = body.code_challenge ?? undefined;
  const method = body.code_challenge_method?.toLowerCase() ?? undefined;
  if (!challenge && !method) return undefined;
  if (!challenge || !method) {
    throw errors.validation('PKCE flow requires code_challenge_method and code_challenge');
  }
  if (method !== 's256') {
    throw errors.validation('Code challenge method not supported: use S256');
  }
  if (!CHALLENGE.test(challenge)) {
    throw errors.validation('code_challenge must be 43 to 128 URL-safe characters');
  }
  return { challenge, method };
}

/** The amr method (and flow-state label) a verified email link signs in with. */
export function authenticationMethodFor(type: string): string {
  if (type === 'signup') return 'email/signup';
  return type; // magiclink, recovery, email_change, invite
}

/** A flow state waiting for its email link; an older unfinished one of the same kind goes. */
export async function createFlowState(
  ctx: AuthContext,
  tx: Tx,
  userId: string,
  pkce: Pkce,
  authenticationMethod: string,
  redirectTo: string,
): Promise<void> {
  const now = ctx.clock();
  await deleteUnfinishedFlowStates(tx, userId, authenticationMethod);
  await insertFlowState(tx, {
    userId,
    // Replaced by the hash of the real auth code when the link is opened.
    authCodeHash: sha256Hex(randomToken()),
    codeChallenge: pkce.challenge,
    codeChallengeMethod: pkce.method,
    providerType: 'email',
    authenticationMethod,
    redirectTo,
    createdAt: now,
    updatedAt: now,
  });
}

/** After a verified PKCE email link: the auth code the browser carries back to the app. */
export async function issueAuthCode(
  ctx: AuthContext,
  tx: Tx,
  userId: string,
  authenticationMethod: string,
): Promise<string | undefined> {
  const flow = await lockUnfinishedFlowState(tx, userId, authenticationMethod);
  if (!flow) return undefined;
  const authCode = randomToken();
  await setAuthCode(tx, flow.id, sha256Hex(authCode), ctx.clock());
  return authCode;
}

function challengeMatches(
  flow: { codeChallenge: string; codeChallengeMethod: string },
  verifier: string,
) {
  const expected =
    flow.codeChallengeMethod === 's256'
      ? createHash('sha256').update(verifier).digest('base64url')
      : verifier;
  const a = Buffer.from(expected);
  const b = Buffer.from(flow.codeChallenge);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** POST /token?grant_type=pkce: single use, 5 minutes, verifier checked, then a session. */
export async function exchangeAuthCode(
  ctx: AuthContext,
  body: { auth_code?: string | null | undefined; code_verifier?: string | null | undefined },
  info: RequestInfo,
): Promise<SessionJson> {
  const { auth_code: authCode, code_verifier: verifier } = body;
  if (!authCode || !verifier) {
    throw errors.validation(
      'invalid request: both auth code and code verifier should be non-empty',
    );
  }
  if (!CHALLENGE.test(verifier)) {
    throw errors.validation('code_verifier must be 43 to 128 URL-safe characters');
  }
  const outcome = await ctx.db.transaction(async (tx) => {
    const flow = await lockFlowStateByAuthCode(tx, sha256Hex(authCode));
    if (!flow?.authCodeIssuedAt || !flow.userId) {
      return errors.flowStateNotFound();
    }
    const now = ctx.clock();
    if (now.getTime() - flow.authCodeIssuedAt.getTime() > FLOW_STATE_TTL_SECONDS * 1000) {
      await deleteFlowState(tx, flow.id);
      return errors.flowStateExpired();
    }
    if (!challengeMatches(flow, verifier)) {
      return errors.badCodeVerifier();
    }
    await deleteFlowState(tx, flow.id);
    const user = await findUserById(tx, flow.userId);
    if (!user) return errors.flowStateNotFound();
    if (isBanned(user, now)) return errors.userBanned();
    const session = await startSession(ctx, tx, user, flow.authenticationMethod, info);
    // After OAuth: the provider's tokens, as GoTrue returns them from this exchange.
    const providerToken = openProviderToken(ctx.keys, flow.providerAccessToken);
    const providerRefreshToken = openProviderToken(ctx.keys, flow.providerRefreshToken);
    return {
      ...session,
      ...(providerToken ? { provider_token: providerToken } : {}),
      ...(providerRefreshToken ? { provider_refresh_token: providerRefreshToken } : {}),
    };
  });
  if (outcome instanceof AuthError) throw outcome;
  return outcome;
}
