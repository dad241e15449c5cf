import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  type JWTPayload,
  errors as joseErrors,
  jwtVerify,
} from 'jose';
import type { AuthConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { AuthKeyError, type AuthKeys, CLOCK_TOLERANCE_S } from './keys.ts';
import { findSessionWithUser, type SessionRow } from './sessions.service.ts';
import { findUserById, isBanned, type UserRow } from './users.ts';

/**
 * The one bearer-token check of the server: /auth/v1 (guard.ts), its admin API (admin.ts), /api
 * and /wss (http/caller.ts) all verify through it and only map its failures to their own error
 * shapes. A token passes when its signature is ours (algorithm pinned per key) or a configured
 * hosted project's, it has not expired, its issuer is the one that signs such tokens and its
 * audience is the one asked for; a session it names must still exist (logout and password
 * changes revoke unexpired tokens), and a user's token of ours must name one.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type BearerFailure =
  | 'missing'
  | 'header'
  | 'malformed'
  | 'signature'
  | 'expired'
  | 'issuer'
  | 'audience'
  | 'sub'
  | 'user'
  | 'session'
  | 'banned';

export class BearerError extends Error {
  override name = 'BearerError';
  readonly reason: BearerFailure;
  constructor(reason: BearerFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

export type BearerDeps = {
  db: Db;
  keys: AuthKeys;
  auth: AuthConfig;
  clock: Clock;
  /** A hosted Supabase Auth's JWKS (HOSTED_AUTH_URL), for /api only. */
  hostedJwks?: ReturnType<typeof createRemoteJWKSet> | undefined;
};

export type VerifiedBearer = {
  claims: JWTPayload;
  /** Signed by a hosted project (its JWKS or the shared JWT_SECRET), not by our key. */
  hosted: boolean;
  session: SessionRow | undefined;
  /** The session's user when live, read with the session (bearerUser needs no second read). */
  sessionUser: UserRow | undefined;
};

export function hostedJwksOf(auth: AuthConfig) {
  return auth.hostedAuthUrl
    ? createRemoteJWKSet(new URL(`${auth.hostedAuthUrl}/.well-known/jwks.json`))
    : undefined;
}

/** The token of an `Authorization: Bearer <token>` header. */
function bearerToken(header: unknown): string {
  if (header === undefined) throw new BearerError('missing', 'no Authorization header');
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match?.[1])
    throw new BearerError('header', 'the Authorization header is not a bearer token');
  return match[1];
}

const audiencesOf = (claims: JWTPayload) =>
  Array.isArray(claims.aud) ? claims.aud : claims.aud === undefined ? [] : [claims.aud];

/** Signature, expiry, issuer, audience and a named session; `audience` defaults to JWT_AUD. */
export async function verifyBearer(
  deps: BearerDeps,
  header: unknown,
  audience: string = deps.auth.jwtAud,
): Promise<VerifiedBearer> {
  const token = bearerToken(header);
  let protectedHeader: ReturnType<typeof decodeProtectedHeader>;
  try {
    protectedHeader = decodeProtectedHeader(token);
  } catch {
    throw new BearerError('malformed', 'unable to parse or verify signature, token is malformed');
  }
  const hostedUrl = deps.auth.hostedAuthUrl;
  let claims: JWTPayload;
  let hosted: boolean;
  if (
    deps.hostedJwks &&
    protectedHeader.kid !== undefined &&
    protectedHeader.kid !== deps.keys.kid
  ) {
    try {
      ({ payload: claims } = await jwtVerify(token, deps.hostedJwks, {
        algorithms: ['ES256', 'RS256'],
        clockTolerance: CLOCK_TOLERANCE_S,
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired)
        throw new BearerError('expired', 'token has expired');
      throw new BearerError(
        'signature',
        'unable to parse or verify signature, signature is invalid',
      );
    }
    hosted = true;
  } else {
    try {
      claims = await deps.keys.verify(token);
    } catch (error) {
      if (!(error instanceof AuthKeyError)) throw error;
      const expired = error.message === 'token has expired';
      throw new BearerError(expired ? 'expired' : 'signature', error.message);
    }
    // Only a hosted project signs with the shared secret; our own keys are asymmetric.
    hosted = protectedHeader.alg === 'HS256';
  }
  // A hosted project's tokens name that project; with only the shared secret, JWT_ISSUER says
  // which issuer that is.
  const issuer = hosted ? (hostedUrl ?? deps.auth.jwtIssuer) : deps.auth.jwtIssuer;
  if (claims.iss !== issuer) {
    throw new BearerError('issuer', 'invalid claim: the token was issued by someone else');
  }
  if (!audiencesOf(claims).includes(audience)) {
    throw new BearerError('audience', "token audience doesn't match request audience");
  }
  let session: SessionRow | undefined;
  let sessionUser: UserRow | undefined;
  if (claims.session_id !== undefined && !hosted) {
    const id = claims.session_id;
    if (typeof id !== 'string' || !UUID.test(id)) throw sessionGone();
    const found = await findSessionWithUser(deps.db, id);
    if (!found || (claims.sub !== undefined && found.session.userId !== claims.sub)) {
      throw sessionGone();
    }
    ({ session, user: sessionUser } = found);
  }
  return { claims, hosted, session, sessionUser };
}

const sessionGone = () =>
  new BearerError('session', 'Session from session_id claim in JWT does not exist');

export type BearerUser = VerifiedBearer & { user: UserRow };

/**
 * A user's token: a UUID `sub` naming an existing user (or, for hosted tokens, the one
 * `shadow` makes), a live session for tokens of ours, and no ban.
 */
export async function bearerUser(
  deps: BearerDeps,
  verified: VerifiedBearer,
  shadow?: (claims: JWTPayload) => Promise<UserRow | undefined>,
): Promise<BearerUser> {
  const { claims, hosted, session } = verified;
  if (typeof claims.sub !== 'string' || !UUID.test(claims.sub)) {
    throw new BearerError('sub', 'invalid claim: sub claim must be a UUID');
  }
  // With a session, its user is the sub's (verifyBearer checked) and was read with it.
  let user = session ? verified.sessionUser : await findUserById(deps.db, claims.sub);
  if (!user && hosted && shadow) user = await shadow(claims);
  if (!user) throw new BearerError('user', 'User from sub claim in JWT does not exist');
  if (!hosted && !session) throw sessionGone();
  if (isBanned(user, deps.clock())) throw new BearerError('banned', 'User is banned');
  return { ...verified, user };
}
