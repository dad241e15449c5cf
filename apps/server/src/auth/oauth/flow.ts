import { createHash } from 'node:crypto';
import type { OAuthProviderConfig } from '../../config.ts';
import type { AuthContext, RequestInfo } from '../context.ts';
import { randomToken, sha256Hex } from '../crypto.ts';
import { AuthError, errors } from '../errors.ts';
import { insertFlowState, startOAuthState, takeOAuthState } from '../flow-states.repository.ts';
import { withProviderIdentity } from '../identities.service.ts';
import type { Pkce } from '../pkce.ts';
import { startSession } from '../sessions.service.ts';
import { sealProviderToken } from './provider-tokens.ts';
import {
  authorizationUrl,
  exchangeCode,
  identityFromTokens,
  ProviderError,
  type ProviderIdentity,
} from './providers.ts';
import {
  nonceFor,
  OAUTH_STATE_TTL_SECONDS,
  providerVerifierFor,
  signState,
  verifyState,
} from './state.ts';

/** The one callback URL every provider is registered with. */
function callbackUrl(ctx: AuthContext): string {
  return `${ctx.auth.externalUrl}/callback`;
}

export function enabledProvider(ctx: AuthContext, name: string | undefined): OAuthProviderConfig {
  const provider = ctx.auth.oauthProviders.find((candidate) => candidate.name === name);
  if (!provider) {
    throw errors.providerDisabled();
  }
  return provider;
}

/** Query parameters that are ours or the protocol's; any other is passed on to the provider. */
const RESERVED = new Set([
  'provider',
  'redirect_to',
  'scopes',
  'code_challenge',
  'code_challenge_method',
  'skip_http_redirect',
  'client_id',
  'redirect_uri',
  'response_type',
  'response_mode',
  'scope',
  'state',
  'nonce',
  'request',
  'request_uri',
]);

export function passThroughParams(query: unknown): Record<string, string> {
  const extra: Record<string, string> = {};
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (!RESERVED.has(key) && typeof value === 'string') extra[key] = value;
  }
  return extra;
}

/** GET /authorize (and /user/identities/authorize): a state row, then the provider's URL. */
export async function beginOAuth(
  ctx: AuthContext,
  provider: OAuthProviderConfig,
  input: {
    redirectTo: string;
    pkce: Pkce | undefined;
    scopes: string | undefined;
    extra: Record<string, string>;
    linkUserId: string | null;
  },
): Promise<string> {
  const now = ctx.clock();
  const expiresAt = new Date(now.getTime() + OAUTH_STATE_TTL_SECONDS * 1000);
  const id = await startOAuthState(ctx.db, {
    provider: provider.name,
    redirectTo: input.redirectTo,
    codeChallenge: input.pkce?.challenge ?? null,
    linkUserId: input.linkUserId,
    expiresAt,
    createdAt: now,
  });
  try {
    return await authorizationUrl(provider, {
      state: signState(ctx.keys, id, expiresAt),
      nonce: nonceFor(ctx.keys, id),
      codeChallenge: createHash('sha256')
        .update(providerVerifierFor(ctx.keys, id))
        .digest('base64url'),
      redirectUri: callbackUrl(ctx),
      scopes: (input.scopes ?? '').split(/[\s,]+/).filter(Boolean),
      extra: input.extra,
    });
  } catch (error) {
    if (error instanceof ProviderError) {
      ctx.log.warn(
        { provider: provider.name, reason: error.message },
        'oauth: provider unavailable',
      );
      throw errors.providerUnavailable(provider.label);
    }
    throw error;
  }
}

/** `url` with params added to its query (the fragment, if any, kept). */
function withQuery(url: string, params: Record<string, string>): string {
  const hashAt = url.indexOf('#');
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  const query = new URLSearchParams(params).toString();
  return `${base}${base.includes('?') ? '&' : '?'}${query}${hash}`;
}

/** `url` with params as its fragment (replacing any). */
function withFragment(url: string, params: Record<string, string>): string {
  const base = url.split('#', 1)[0] as string;
  return `${base}#${new URLSearchParams(params).toString()}`;
}

/** Errors go back like GoTrue sends them: in the query and the fragment, read by auth-js. */
function errorRedirect(url: string, error: string, code: string, description: string) {
  const params = { error, error_code: code, error_description: description };
  return withFragment(withQuery(url, params), params);
}

export type CallbackInput = {
  state: string | undefined;
  code: string | undefined;
  error: string | undefined;
  errorDescription: string | undefined;
};

/**
 * GET|POST /callback: the state checked and consumed, the code exchanged, the id_token (or
 * GitHub's API) read, the user found, created or linked; then where to send the browser:
 * tokens in the fragment (implicit) or `?code=` (PKCE), or `error`, `error_code`,
 * `error_description`.
 */
export async function completeOAuth(
  ctx: AuthContext,
  input: CallbackInput,
  info: RequestInfo,
): Promise<string> {
  const now = ctx.clock();
  const checked = verifyState(ctx.keys, input.state, now);
  if (!checked.ok) {
    const why =
      checked.reason === 'expired' ? 'OAuth state has expired' : 'OAuth state parameter is invalid';
    return errorRedirect(ctx.auth.siteUrl, 'invalid_request', 'bad_oauth_state', why);
  }
  const flow = await takeOAuthState(ctx.db, checked.id);
  if (!flow) {
    return errorRedirect(
      ctx.auth.siteUrl,
      'invalid_request',
      'bad_oauth_state',
      'OAuth state parameter is invalid or already used',
    );
  }
  const fail = (error: string, code: string, description: string) =>
    errorRedirect(flow.redirectTo, error, code, description);
  if (flow.expiresAt.getTime() < now.getTime()) {
    return fail('invalid_request', 'bad_oauth_state', 'OAuth state has expired');
  }
  if (input.error) {
    return fail(
      input.error.slice(0, 64),
      'bad_oauth_callback',
      (input.errorDescription ?? 'The provider refused the sign-in').slice(0, 300),
    );
  }
  if (!input.code) {
    return fail(
      'invalid_request',
      'bad_oauth_callback',
      'OAuth callback with missing authorization code',
    );
  }
  const provider = ctx.auth.oauthProviders.find((candidate) => candidate.name === flow.provider);
  if (!provider) {
    return fail(
      'invalid_request',
      'provider_disabled',
      'Unsupported provider: provider is not enabled',
    );
  }

  let identity: ProviderIdentity;
  let providerToken: string;
  let providerRefreshToken: string | null;
  try {
    const tokens = await exchangeCode(
      provider,
      input.code,
      providerVerifierFor(ctx.keys, flow.id),
      callbackUrl(ctx),
    );
    identity = await identityFromTokens(provider, tokens, nonceFor(ctx.keys, flow.id), now);
    providerToken = tokens.accessToken;
    providerRefreshToken = tokens.refreshToken;
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    ctx.log.warn({ provider: provider.name, reason: error.message }, 'oauth: callback refused');
    return fail('server_error', 'bad_oauth_callback', error.message);
  }

  const outcome = await withProviderIdentity(
    ctx,
    identity,
    info,
    flow.linkUserId,
    async (tx, user) => {
      if (flow.codeChallenge) {
        // PKCE: a short-lived auth code for /token?grant_type=pkce; the session starts there
        // and hands out the provider's tokens too (sealed until then).
        const authCode = randomToken();
        await insertFlowState(tx, {
          userId: user.id,
          authCodeHash: sha256Hex(authCode),
          codeChallenge: flow.codeChallenge,
          codeChallengeMethod: 's256',
          providerType: provider.name,
          authenticationMethod: 'oauth',
          redirectTo: flow.redirectTo,
          providerAccessToken: sealProviderToken(ctx.keys, providerToken),
          providerRefreshToken: providerRefreshToken
            ? sealProviderToken(ctx.keys, providerRefreshToken)
            : null,
          authCodeIssuedAt: now,
          createdAt: now,
          updatedAt: now,
        });
        return withQuery(flow.redirectTo, { code: authCode });
      }
      const session = await startSession(ctx, tx, user, 'oauth', info);
      return withFragment(flow.redirectTo, {
        access_token: session.access_token,
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        provider_token: providerToken,
        ...(providerRefreshToken ? { provider_refresh_token: providerRefreshToken } : {}),
        refresh_token: session.refresh_token,
        token_type: 'bearer',
      });
    },
  );
  if (outcome instanceof AuthError) {
    const error = outcome.status >= 500 ? 'server_error' : 'access_denied';
    return fail(error, outcome.code, outcome.message);
  }
  return outcome;
}
