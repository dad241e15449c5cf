import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { optionalJwt, optionalString, parseBody } from '../body.ts';
import { type AuthContext, requestInfo } from '../context.ts';
import { AuthError } from '../errors.ts';
import { authenticate } from '../guard.ts';
import { identityErrors, withProviderIdentity } from '../identities.ts';
import { type SessionJson, startSession } from '../sessions.ts';
import { ProviderError, verifyIdToken } from './providers.ts';

const idTokenBody = z.object({
  provider: optionalString,
  id_token: optionalJwt,
  access_token: optionalJwt,
  nonce: optionalString,
  link_identity: z.boolean().nullish(),
});

/**
 * POST /token?grant_type=id_token (auth-js signInWithIdToken, and linkIdentity with an
 * id_token): the provider's token verified against its issuer, our client id as audience,
 * its JWKS and the nonce, then the same find-or-create-or-link rules as the callback.
 */
export async function idTokenGrant(
  ctx: AuthContext,
  request: FastifyRequest,
): Promise<SessionJson> {
  const info = requestInfo(request);
  const body = parseBody(idTokenBody, request.body);
  if (!body.provider || !body.id_token) {
    throw new AuthError(400, 'validation_failed', 'provider and id_token are required');
  }
  // A provider is named, or given by its issuer URL.
  const provider = ctx.auth.oauthProviders.find(
    (candidate) =>
      candidate.kind === 'oidc' &&
      (candidate.name === body.provider || candidate.issuer === body.provider),
  );
  if (provider?.kind !== 'oidc') {
    throw new AuthError(
      400,
      'provider_disabled',
      `Custom OIDC provider "${body.provider.slice(0, 60)}" not allowed`,
    );
  }
  let linkUserId: string | null = null;
  if (body.link_identity) {
    if (!ctx.auth.manualLinkingEnabled) throw identityErrors.manualLinkingDisabled();
    linkUserId = (await authenticate(ctx, request)).user.id;
  }
  let identity: Awaited<ReturnType<typeof verifyIdToken>>;
  try {
    identity = await verifyIdToken(
      provider,
      body.id_token,
      { kind: 'hashed', nonce: body.nonce ?? undefined },
      ctx.clock(),
    );
  } catch (error) {
    if (error instanceof ProviderError) {
      throw new AuthError(400, 'invalid_credentials', error.message);
    }
    throw error;
  }
  const outcome = await withProviderIdentity(ctx, identity, info, linkUserId, (tx, user) =>
    startSession(ctx, tx, user, 'oauth', info),
  );
  if (outcome instanceof AuthError) throw outcome;
  return outcome;
}
