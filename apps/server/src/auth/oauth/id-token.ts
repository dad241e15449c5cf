import { decodeJwt } from 'jose';
import { z } from 'zod';
import { optionalJwt, optionalString } from '../body.ts';
import type { AuthContext, RequestInfo } from '../context.ts';
import { AuthError, errors } from '../errors.ts';
import type { Authenticated } from '../guard.ts';
import { withProviderIdentity } from '../identities.service.ts';
import { type SessionJson, startSession } from '../sessions.service.ts';
import { ProviderError, verifyIdToken } from './providers.ts';

export const idTokenBody = z.object({
  provider: optionalString,
  id_token: optionalJwt,
  access_token: optionalJwt,
  nonce: optionalString,
  link_identity: z.boolean().nullish(),
});

/** The id_token providers GoTrue knows by name and by their fixed issuer. */
const GOTRUE_ISSUERS: Readonly<Record<string, string>> = {
  apple: 'https://appleid.apple.com',
  google: 'https://accounts.google.com',
  facebook: 'https://www.facebook.com',
  kakao: 'https://kauth.kakao.com',
  vercel_marketplace: 'https://marketplace.vercel.com',
};

/**
 * GoTrue's answer for a provider we do not have: one it knows is "not enabled", naming its
 * issuer (Azure's is read from the token, Keycloak's would be configured: empty here);
 * anything else is refused as an arbitrary issuer.
 */
function notOffered(provider: string, idToken: string): AuthError {
  const known = Object.entries(GOTRUE_ISSUERS).find(
    ([name, issuer]) => provider === name || provider === issuer,
  );
  let issuer = known?.[1];
  if (provider === 'keycloak') issuer = '';
  if (provider === 'azure') {
    try {
      const claimed = decodeJwt(idToken).iss;
      issuer = typeof claimed === 'string' ? claimed : '';
    } catch {
      return errors.validation('Unable to detect issuer in ID token for Azure provider');
    }
  }
  if (issuer === undefined) {
    return errors.validation(`Custom OIDC provider "${provider.slice(0, 60)}" not allowed`);
  }
  return errors.providerDisabled(
    `Provider (issuer ${JSON.stringify(issuer.slice(0, 200))}) is not enabled`,
  );
}

/**
 * POST /token?grant_type=id_token (auth-js signInWithIdToken, and linkIdentity with an
 * id_token): the provider's token verified against its issuer, our client id as audience,
 * its JWKS and the nonce, then the same find-or-create-or-link rules as the callback.
 */
export async function idTokenGrant(
  ctx: AuthContext,
  body: z.infer<typeof idTokenBody>,
  info: RequestInfo,
  /** The signed-in caller, asked only when linking an identity to them. */
  caller: () => Promise<Authenticated>,
): Promise<SessionJson> {
  if (!body.provider || !body.id_token) {
    throw errors.validation('provider and id_token are required');
  }
  // A provider is named, or given by its issuer URL.
  const provider = ctx.auth.oauthProviders.find(
    (candidate) =>
      candidate.kind === 'oidc' &&
      (candidate.name === body.provider || candidate.issuer === body.provider),
  );
  if (provider?.kind !== 'oidc') throw notOffered(body.provider, body.id_token);
  let linkUserId: string | null = null;
  if (body.link_identity) {
    if (!ctx.auth.manualLinkingEnabled) throw errors.manualLinkingDisabled();
    linkUserId = (await caller()).user.id;
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
      throw errors.invalidCredentials(error.message);
    }
    throw error;
  }
  const outcome = await withProviderIdentity(ctx, identity, info, linkUserId, (tx, user) =>
    startSession(ctx, tx, user, 'oauth', info),
  );
  if (outcome instanceof AuthError) throw outcome;
  return outcome;
}
