import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { AuthConfig } from '../config.ts';
import type { WebAuthnCredentialJson } from '../db/schema/auth.ts';
import type { UserRow } from './users.ts';

/**
 * The WebAuthn ceremonies of passkeys and WebAuthn MFA factors, in one place: the relying
 * party comes from the server's configuration (PUBLIC_URL), never from the client (auth-js
 * sends `rp_id`/`rp_origins`; GoTrue ignores them too). Verification failures of any kind
 * (malformed JSON, wrong origin or RP id, bad signature, a counter that did not grow) are
 * `null`: callers answer with their own GoTrue code, and nothing of the response is logged.
 */
type RelyingParty = AuthConfig['webauthn'];

/** A credential as stored after registration (public material only). */
export type NewCredential = WebAuthnCredentialJson & {
  aaguid: string | null;
  backupEligible: boolean;
  backedUp: boolean;
};

/**
 * The library, loaded on the first ceremony: with its ASN.1 and crypto dependencies it is
 * ~280 modules, ~0.1 s of every start that serves no passkey.
 */
const library = () => import('@simplewebauthn/server');

const ZERO_AAGUID = '00000000-0000-0000-0000-000000000000';
/**
 * EdDSA, ES256, RS256: the library's defaults without its probe for post-quantum support,
 * which costs an experimental-API warning in Node's log on every ceremony.
 */
const ALGORITHMS = [-8, -7, -257];

/**
 * The user handle is the user id's text, as GoTrue's (WebAuthnID = the UUID string): a
 * discoverable sign-in finds the account from it.
 */
function userHandle(user: UserRow): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(user.id, 'utf8'));
}

export function userIdFromHandle(handle: unknown): string | null {
  if (typeof handle !== 'string' || handle.length > 200) return null;
  return Buffer.from(handle, 'base64url').toString('utf8');
}

export async function registrationOptions(
  rp: RelyingParty,
  user: UserRow,
  exclude: ReadonlyArray<{ id: string; transports: string[] }>,
  kind: 'passkey' | 'factor',
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const name = user.email || user.phone || user.id;
  const displayName = user.userMetadata.name;
  const { generateRegistrationOptions } = await library();
  return generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpId,
    userName: name,
    userID: userHandle(user),
    userDisplayName: typeof displayName === 'string' && displayName ? displayName : name,
    timeout: rp.challengeExpiry * 1000,
    attestationType: 'none',
    supportedAlgorithmIDs: ALGORITHMS,
    excludeCredentials: exclude.map((c) => ({ id: c.id, transports: c.transports })),
    // A passkey must be discoverable (sign-in without a name); a second factor need not be.
    authenticatorSelection:
      kind === 'passkey'
        ? { residentKey: 'required', userVerification: 'preferred' }
        : { residentKey: 'discouraged', userVerification: 'preferred' },
  });
}

export async function verifyRegistration(
  rp: RelyingParty,
  response: unknown,
  expectedChallenge: string,
): Promise<NewCredential | null> {
  const { verifyRegistrationResponse } = await library();
  try {
    const result = await verifyRegistrationResponse({
      // Its shape is the library's to check: a malformed response throws.
      response: response as Parameters<typeof verifyRegistrationResponse>[0]['response'],
      expectedChallenge,
      expectedOrigin: [...rp.origins],
      expectedRPID: rp.rpId,
      // GoTrue's preference ("preferred"): presence is required, verification is not.
      requireUserVerification: false,
      supportedAlgorithmIDs: ALGORITHMS,
    });
    if (!result.verified) return null;
    const info = result.registrationInfo;
    return {
      id: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: info.credential.transports ?? [],
      aaguid: info.aaguid && info.aaguid !== ZERO_AAGUID ? info.aaguid : null,
      backupEligible: info.credentialDeviceType === 'multiDevice',
      backedUp: info.credentialBackedUp,
    };
  } catch {
    return null;
  }
}

export async function authenticationOptions(
  rp: RelyingParty,
  allow: ReadonlyArray<{ id: string; transports: string[] }>,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await library();
  return generateAuthenticationOptions({
    rpID: rp.rpId,
    timeout: rp.challengeExpiry * 1000,
    userVerification: 'preferred',
    // Empty for passkeys: the authenticator offers whichever discoverable credential it holds.
    allowCredentials: allow.map((c) => ({ id: c.id, transports: c.transports })),
  });
}

/** The credential id an assertion claims to be from (looked up before it is verified). */
export function assertionCredentialId(response: unknown): string | null {
  const id = (response as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id.length > 0 && id.length <= 1024 ? id : null;
}

/**
 * Checks an assertion against the stored credential. Returns the authenticator's new
 * signature counter, or null; a counter that did not grow past a non-zero stored one means a
 * cloned authenticator and is refused.
 */
export async function verifyAssertion(
  rp: RelyingParty,
  response: unknown,
  expectedChallenge: string,
  credential: WebAuthnCredentialJson,
): Promise<number | null> {
  const { verifyAuthenticationResponse } = await library();
  try {
    const result = await verifyAuthenticationResponse({
      response: response as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
      expectedChallenge,
      expectedOrigin: [...rp.origins],
      expectedRPID: rp.rpId,
      credential: {
        id: credential.id,
        publicKey: new Uint8Array(Buffer.from(credential.publicKey, 'base64url')),
        counter: credential.counter,
        transports: credential.transports as never,
      },
      requireUserVerification: false,
    });
    return result.verified ? result.authenticationInfo.newCounter : null;
  } catch {
    return null;
  }
}
