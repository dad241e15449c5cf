import { createHash } from 'node:crypto';
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import type { OAuthProviderConfig } from '../../config.ts';

/**
 * The sign-in providers: a generic OpenID Connect provider and Google (discovered from the
 * issuer's `.well-known/openid-configuration`, id_token verified against its JWKS), and
 * GitHub (OAuth 2 only: the profile and verified emails come from its REST API).
 */

/** What a provider tells us about the person, in GoTrue's identity_data shape. */
export type ProviderIdentity = {
  provider: string;
  /** The provider's stable subject id. */
  sub: string;
  email: string | null;
  /** Only a provider-verified email may be linked to an existing account. */
  emailVerified: boolean;
  data: Record<string, unknown>;
};

export type ProviderTokens = {
  accessToken: string;
  refreshToken: string | null;
  idToken: string | null;
};

/** The provider failed or answered something unusable (its text is safe to show). */
export class ProviderError extends Error {
  override name = 'ProviderError';
}

const TIMEOUT_MS = 10_000;
const DISCOVERY_TTL_MS = 3_600_000;
/** Asymmetric only: an id_token "signed" with the client secret (HS256) is not accepted. */
const ID_TOKEN_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

type Discovery = {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwks: ReturnType<typeof createRemoteJWKSet>;
};

const discoveries = new Map<string, { at: number; value: Promise<Discovery> }>();

async function fetchJson(url: string, init: RequestInit = {}): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      headers: { accept: 'application/json', ...init.headers },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new ProviderError(`The provider could not be reached (${new URL(url).host})`);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProviderError(`The provider answered ${response.status} without JSON`);
  }
  if (!response.ok) {
    const error = (json as { error?: unknown })?.error;
    throw new ProviderError(
      `The provider answered ${response.status}${typeof error === 'string' ? ` (${error.slice(0, 80)})` : ''}`,
    );
  }
  return json;
}

/** The issuer's discovery document (cached an hour) and its key set (jose caches keys). */
function discover(issuer: string): Promise<Discovery> {
  const cached = discoveries.get(issuer);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.value;
  const value = (async () => {
    const doc = (await fetchJson(
      `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
    )) as Record<string, unknown>;
    const { authorization_endpoint, token_endpoint, jwks_uri } = doc;
    if (doc.issuer !== issuer) {
      throw new ProviderError('The discovery document names another issuer');
    }
    if (
      typeof authorization_endpoint !== 'string' ||
      typeof token_endpoint !== 'string' ||
      typeof jwks_uri !== 'string'
    ) {
      throw new ProviderError('The discovery document lacks an endpoint');
    }
    return {
      issuer,
      authorizationEndpoint: authorization_endpoint,
      tokenEndpoint: token_endpoint,
      jwks: createRemoteJWKSet(new URL(jwks_uri), { timeoutDuration: TIMEOUT_MS }),
    };
  })();
  discoveries.set(issuer, { at: Date.now(), value });
  value.catch(() => discoveries.delete(issuer));
  return value;
}

export type AuthorizeParams = {
  state: string;
  nonce: string;
  /** Our own PKCE verifier's challenge towards the provider. */
  codeChallenge: string;
  redirectUri: string;
  scopes: string[];
  extra: Record<string, string>;
};

const DEFAULT_SCOPES: Record<OAuthProviderConfig['kind'], string[]> = {
  oidc: ['openid', 'email', 'profile'],
  github: ['user:email'],
};

export async function authorizationUrl(
  provider: OAuthProviderConfig,
  params: AuthorizeParams,
): Promise<string> {
  const scopes = [...new Set([...DEFAULT_SCOPES[provider.kind], ...params.scopes])];
  const query = new URLSearchParams(params.extra);
  query.set('client_id', provider.clientId);
  query.set('redirect_uri', params.redirectUri);
  query.set('response_type', 'code');
  query.set('scope', scopes.join(' '));
  query.set('state', params.state);
  query.set('code_challenge', params.codeChallenge);
  query.set('code_challenge_method', 'S256');
  if (provider.kind === 'github') {
    return `${provider.webUrl}/login/oauth/authorize?${query}`;
  }
  query.set('nonce', params.nonce);
  const discovery = await discover(provider.issuer);
  return `${discovery.authorizationEndpoint}?${query}`;
}

/** The authorization code for tokens, authenticating with the client secret. */
export async function exchangeCode(
  provider: OAuthProviderConfig,
  code: string,
  verifier: string,
  redirectUri: string,
): Promise<ProviderTokens> {
  const endpoint =
    provider.kind === 'github'
      ? `${provider.webUrl}/login/oauth/access_token`
      : (await discover(provider.issuer)).tokenEndpoint;
  const basic = Buffer.from(
    `${encodeURIComponent(provider.clientId)}:${encodeURIComponent(provider.secret)}`,
  ).toString('base64');
  const json = (await fetchJson(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${basic}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      // GitHub reads the client from the body.
      ...(provider.kind === 'github'
        ? { client_id: provider.clientId, client_secret: provider.secret }
        : {}),
    }),
  })) as Record<string, unknown>;
  if (typeof json.access_token !== 'string') {
    const error = typeof json.error === 'string' ? ` (${json.error.slice(0, 80)})` : '';
    throw new ProviderError(`The provider issued no access token${error}`);
  }
  return {
    accessToken: json.access_token,
    refreshToken: typeof json.refresh_token === 'string' ? json.refresh_token : null,
    idToken: typeof json.id_token === 'string' ? json.id_token : null,
  };
}

const KEPT_CLAIMS = [
  'iss',
  'sub',
  'email',
  'email_verified',
  'name',
  'given_name',
  'family_name',
  'picture',
  'preferred_username',
  'locale',
  'phone_number',
  'phone_number_verified',
];

function identityFromClaims(provider: string, claims: JWTPayload): ProviderIdentity {
  const sub = claims.sub;
  if (typeof sub !== 'string' || sub === '') throw new ProviderError('The id_token has no subject');
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : null;
  // Some providers send the flag as a string.
  const emailVerified = claims.email_verified === true || claims.email_verified === 'true';
  const data: Record<string, unknown> = {};
  for (const key of KEPT_CLAIMS) if (claims[key] !== undefined) data[key] = claims[key];
  data.email_verified = emailVerified;
  data.phone_verified = false;
  data.provider_id = sub;
  if (typeof claims.name === 'string') data.full_name = claims.name;
  if (typeof claims.picture === 'string') data.avatar_url = claims.picture;
  return {
    provider,
    sub,
    email: email || null,
    emailVerified: email ? emailVerified : false,
    data,
  };
}

export type NonceCheck =
  /** Our own flow: the claim must equal the nonce we sent. */
  | { kind: 'exact'; nonce: string }
  /**
   * signInWithIdToken (GoTrue's rule): the app gave the provider SHA-256(nonce) and us the
   * nonce; a token with a nonce needs one, and a nonce given needs a token that carries it.
   */
  | { kind: 'hashed'; nonce: string | undefined };

/** Signature (the issuer's JWKS), issuer, audience (our client id), expiry and nonce. */
export async function verifyIdToken(
  provider: Extract<OAuthProviderConfig, { kind: 'oidc' }>,
  idToken: string,
  nonce: NonceCheck,
  now: Date,
): Promise<ProviderIdentity> {
  const discovery = await discover(provider.issuer);
  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jwtVerify(idToken, discovery.jwks, {
      // Google signs some tokens with its issuer written without the scheme.
      issuer:
        provider.name === 'google' ? [provider.issuer, 'accounts.google.com'] : provider.issuer,
      audience: provider.clientId,
      algorithms: ID_TOKEN_ALGORITHMS,
      currentDate: now,
      clockTolerance: 30,
      requiredClaims: ['sub', 'exp', 'iat'],
    }));
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'invalid';
    throw new ProviderError(`Bad ID token: ${reason}`);
  }
  const claim = typeof claims.nonce === 'string' ? claims.nonce : undefined;
  if (nonce.kind === 'exact') {
    if (claim !== nonce.nonce) throw new ProviderError('Bad ID token: nonce mismatch');
  } else {
    if (claim && !nonce.nonce) {
      throw new ProviderError(
        'Passed nonce and nonce in id_token should either both exist or not.',
      );
    }
    if (nonce.nonce) {
      const hashed = createHash('sha256').update(nonce.nonce).digest('hex');
      if (claim !== hashed) throw new ProviderError('Nonces mismatch');
    }
  }
  return identityFromClaims(provider.name, claims);
}

type GitHubUser = { id?: unknown; login?: unknown; name?: unknown; avatar_url?: unknown };
type GitHubEmail = { email?: unknown; primary?: unknown; verified?: unknown };

/** GitHub is not OpenID Connect: the profile and emails come from its API. */
async function githubIdentity(
  provider: Extract<OAuthProviderConfig, { kind: 'github' }>,
  accessToken: string,
): Promise<ProviderIdentity> {
  const headers = {
    authorization: `Bearer ${accessToken}`,
    accept: 'application/vnd.github+json',
    'user-agent': 'UpNext-auth',
  };
  const user = (await fetchJson(`${provider.apiUrl}/user`, { headers })) as GitHubUser;
  const emails = (await fetchJson(`${provider.apiUrl}/user/emails`, { headers })) as unknown;
  if (typeof user.id !== 'number' && typeof user.id !== 'string') {
    throw new ProviderError('GitHub returned a user without an id');
  }
  const list = Array.isArray(emails) ? (emails as GitHubEmail[]) : [];
  const usable = list.filter((entry) => typeof entry.email === 'string' && entry.email !== '');
  // The primary address if GitHub verified it, else any verified one, else the primary.
  const chosen =
    usable.find((entry) => entry.primary === true && entry.verified === true) ??
    usable.find((entry) => entry.verified === true) ??
    usable.find((entry) => entry.primary === true);
  const email = chosen ? String(chosen.email).trim().toLowerCase() : null;
  const emailVerified = chosen?.verified === true;
  const sub = String(user.id);
  const data: Record<string, unknown> = {
    iss: provider.apiUrl,
    sub,
    provider_id: sub,
    email_verified: emailVerified,
    phone_verified: false,
  };
  if (email) data.email = email;
  if (typeof user.login === 'string') {
    data.user_name = user.login;
    data.preferred_username = user.login;
  }
  if (typeof user.name === 'string') {
    data.name = user.name;
    data.full_name = user.name;
  }
  if (typeof user.avatar_url === 'string') data.avatar_url = user.avatar_url;
  return { provider: 'github', sub, email, emailVerified, data };
}

/** Who signed in, from the tokens of our own authorization-code flow. */
export async function identityFromTokens(
  provider: OAuthProviderConfig,
  tokens: ProviderTokens,
  nonce: string,
  now: Date,
): Promise<ProviderIdentity> {
  if (provider.kind === 'github') return githubIdentity(provider, tokens.accessToken);
  if (!tokens.idToken) throw new ProviderError('The provider issued no id_token');
  return verifyIdToken(provider, tokens.idToken, { kind: 'exact', nonce }, now);
}
