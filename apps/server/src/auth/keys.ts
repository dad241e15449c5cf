import {
  createHash,
  createPrivateKey,
  createPublicKey,
  createSecretKey,
  generateKeyPairSync,
  hkdfSync,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  decodeProtectedHeader,
  type JWTPayload,
  errors as joseErrors,
  jwtVerify,
  SignJWT,
} from 'jose';
import type { AuthConfig } from '../config.ts';

type AsymmetricAlg = 'ES256' | 'RS256';

type PublicJwk = JsonWebKey & { kid: string; alg: AsymmetricAlg; use: 'sig' };

/**
 * The keys of the auth service: one asymmetric key signs access tokens (its public half is
 * published at the JWKS endpoint); an optional HS256 secret verifies tokens of a hosted
 * project. A secret derived from the private key makes refresh tokens re-derivable from
 * their row id, so the database stores only their hashes.
 */
export interface AuthKeys {
  readonly kid: string;
  readonly alg: AsymmetricAlg;
  sign(claims: JWTPayload): Promise<string>;
  /** Verifies signature and expiry with the algorithm pinned to the key; throws AuthKeyError. */
  verify(token: string): Promise<JWTPayload>;
  jwks(): { keys: PublicJwk[] };
  /** 32 bytes for HMACs of refresh tokens and one-time codes. */
  readonly hmacKey: Buffer;
}

export class AuthKeyError extends Error {
  override name = 'AuthKeyError';
}

function algOf(key: KeyObject): AsymmetricAlg {
  if (key.asymmetricKeyType === 'ec') {
    if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw new Error('JWT_PRIVATE_KEY: an EC key must be on the P-256 curve (ES256)');
    }
    return 'ES256';
  }
  if (key.asymmetricKeyType === 'rsa') {
    if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) {
      throw new Error('JWT_PRIVATE_KEY: an RSA key must have at least 2048 bits');
    }
    return 'RS256';
  }
  throw new Error('JWT_PRIVATE_KEY: only EC P-256 (ES256) and RSA (RS256) keys are supported');
}

/** RFC 7638 thumbprint, so the same key always has the same kid. */
function thumbprint(jwk: JsonWebKey): string {
  const members =
    jwk.kty === 'EC'
      ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }
      : { e: jwk.e, kty: jwk.kty, n: jwk.n };
  return createHash('sha256').update(JSON.stringify(members)).digest('base64url');
}

/** Seconds a token's times may be off by, for clocks that disagree a little. */
export const CLOCK_TOLERANCE_S = 5;

/**
 * Tokens whose signature this key set verified, by their exact text, until they expire: a
 * client sends the same access token with every request, and its ES256 check took about a
 * tenth of a token issue's CPU. Only tokens that passed are kept, a hit still checks expiry,
 * and the bearer's session is still read per request (bearer.ts), so a sign-out ends them at
 * once. Bounded: the oldest entry goes first.
 */
function verifiedTokens(bound = 10_000) {
  const tokens = new Map<string, { payload: Readonly<JWTPayload>; exp: number }>();
  return {
    get(token: string): JWTPayload | undefined {
      const known = tokens.get(token);
      if (known && known.exp <= Date.now() / 1000 - CLOCK_TOLERANCE_S) {
        tokens.delete(token);
        throw new AuthKeyError('token has expired');
      }
      return known?.payload;
    },
    add(token: string, payload: JWTPayload): JWTPayload {
      // A token without an expiry (only a hosted project could sign one) is checked each time.
      if (typeof payload.exp !== 'number') return payload;
      if (tokens.size >= bound) tokens.delete(tokens.keys().next().value as string);
      const kept = Object.freeze(payload);
      tokens.set(token, { payload: kept, exp: payload.exp });
      return kept;
    },
  };
}

function keysFromPrivateKey(
  privateKey: KeyObject,
  options: { jwtSecret?: string | undefined; kid?: string | undefined } = {},
): AuthKeys {
  const alg = algOf(privateKey);
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const kid = options.kid ?? thumbprint(publicJwk);
  const publicKey = createPublicKey(privateKey);
  const secret = options.jwtSecret ? createSecretKey(Buffer.from(options.jwtSecret)) : undefined;
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  const hmacKey = Buffer.from(hkdfSync('sha256', der, 'upnext-auth', 'refresh-and-otp', 32));
  const published: PublicJwk = { ...publicJwk, kid, alg, use: 'sig', key_ops: ['verify'] };
  const verified = verifiedTokens();

  return {
    kid,
    alg,
    hmacKey,
    sign: (claims) =>
      new SignJWT(claims).setProtectedHeader({ alg, kid, typ: 'JWT' }).sign(privateKey),
    jwks: () => ({ keys: [published] }),
    async verify(token) {
      const known = verified.get(token);
      if (known) return known;
      let header: ReturnType<typeof decodeProtectedHeader>;
      try {
        header = decodeProtectedHeader(token);
      } catch {
        throw new AuthKeyError('unable to parse or verify signature, token is malformed');
      }
      // Each key accepts only its own algorithm: no alg=none, no HS/RS confusion.
      let key: KeyObject;
      let algorithms: string[];
      if (header.kid !== undefined) {
        if (header.kid !== kid) throw new AuthKeyError('unrecognized JWT kid');
        key = publicKey;
        algorithms = [alg];
      } else if (secret) {
        key = secret;
        algorithms = ['HS256'];
      } else {
        throw new AuthKeyError('unrecognized JWT kid');
      }
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms,
          clockTolerance: CLOCK_TOLERANCE_S,
        });
        return verified.add(token, payload);
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw new AuthKeyError('token has expired');
        throw new AuthKeyError('unable to parse or verify signature, signature is invalid');
      }
    },
  };
}

function parsePrivateKey(text: string): { key: KeyObject; kid?: string } {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    const jwk = JSON.parse(trimmed) as JsonWebKey & { kid?: string };
    if (!jwk.d) throw new Error('JWT_PRIVATE_KEY: the JWK has no private part ("d")');
    const key = createPrivateKey({ key: jwk, format: 'jwk' });
    return jwk.kid ? { key, kid: jwk.kid } : { key };
  }
  return { key: createPrivateKey(trimmed) };
}

/** A fresh in-memory key: for tests, never for a server that must keep its sessions. */
export function ephemeralKeys(jwtSecret?: string): AuthKeys {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return keysFromPrivateKey(privateKey, { jwtSecret });
}

/**
 * JWT_PRIVATE_KEY when set (several instances share one key); otherwise the key kept in
 * `<dataDir>/auth-keys`, generated on the first start (file mode 0600).
 */
export async function loadAuthKeys(
  config: Pick<AuthConfig, 'jwtPrivateKey' | 'jwtSecret'>,
  dataDir: string,
): Promise<AuthKeys> {
  if (config.jwtPrivateKey) {
    const { key, kid } = parsePrivateKey(config.jwtPrivateKey);
    return keysFromPrivateKey(key, { jwtSecret: config.jwtSecret, kid });
  }
  const dir = join(dataDir, 'auth-keys');
  const file = join(dir, 'signing-key.pem');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    try {
      // 'wx': if another process created it first, use theirs.
      await writeFile(file, pem, { mode: 0o600, flag: 'wx' });
    } catch (writeError) {
      if ((writeError as NodeJS.ErrnoException).code !== 'EEXIST') throw writeError;
      pem = await readFile(file, 'utf8');
    }
  }
  await chmod(file, 0o600);
  return keysFromPrivateKey(createPrivateKey(pem), { jwtSecret: config.jwtSecret });
}
