import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * Test helper: a minimal software authenticator (ES256, attestation "none") that answers
 * WebAuthn options the way a browser and a platform authenticator would, as the JSON that
 * auth-js sends (`PublicKeyCredential.toJSON()`). It keeps its discoverable credentials, so
 * it can sign in without being told which one, and a signature counter per credential.
 */

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** CBOR, just enough for a COSE key and an attestation object (maps, ints, bytes, text). */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(n, 1);
    return b;
  };
  if (typeof value === 'number') {
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) {
    const parts: Uint8Array[] = [head(5, value.size)];
    for (const [k, v] of value) parts.push(cbor(k), cbor(v));
    return Buffer.concat(parts);
  }
  throw new Error(`cbor: unsupported ${typeof value}`);
}

type Credential = {
  id: Buffer;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
};

type CreationOptions = {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
};
type RequestOptions = {
  challenge: string;
  rpId?: string;
  allowCredentials?: Array<{ id: string }>;
};

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export function softwareAuthenticator(origin: string) {
  const credentials: Credential[] = [];

  function authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, attested ?? Buffer.alloc(0)]);
  }

  function clientData(type: string, challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  return {
    credentials,

    /** navigator.credentials.create(): a new ES256 key pair and its attestation. */
    create(options: CreationOptions) {
      const rpId = options.rp.id ?? new URL(origin).hostname;
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const coseKey = cbor(
        new Map<number, unknown>([
          [1, 2], // kty: EC2
          [3, -7], // alg: ES256
          [-1, 1], // crv: P-256
          [-2, Buffer.from(jwk.x as string, 'base64url')],
          [-3, Buffer.from(jwk.y as string, 'base64url')],
        ]),
      );
      const id = randomBytes(32);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(id.length);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, id, coseKey]);
      const credential: Credential = {
        id,
        privateKey,
        rpId,
        userHandle: options.user.id,
        counter: 0,
      };
      credentials.push(credential);
      const attestationObject = cbor(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData(rpId, FLAG_UP | FLAG_UV | FLAG_AT, 0, attested)],
        ]),
      );
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },

    /**
     * navigator.credentials.get(): signs with the allowed (or, for a discoverable sign-in, the
     * newest) credential for the RP. `tamper` breaks one part to test the server's checks.
     */
    get(
      options: RequestOptions,
      tamper: { signature?: boolean; counter?: number; credential?: Credential } = {},
    ) {
      const rpId = options.rpId ?? new URL(origin).hostname;
      const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id));
      const credential =
        tamper.credential ??
        credentials
          .filter((c) => c.rpId === rpId && (allowed.size === 0 || allowed.has(b64url(c.id))))
          .at(-1);
      if (!credential) throw new Error('no credential for this relying party');
      credential.counter = tamper.counter ?? credential.counter + 1;
      const data = authData(rpId, FLAG_UP | FLAG_UV, credential.counter);
      const client = clientData('webauthn.get', options.challenge);
      const signature = sign(
        'sha256',
        Buffer.concat([data, sha256(client)]),
        credential.privateKey,
      );
      if (tamper.signature) {
        const last = signature.length - 1;
        signature.writeUInt8(signature.readUInt8(last) ^ 0xff, last);
      }
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          userHandle: credential.userHandle,
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
}

/**
 * What auth-js's `mfa.challenge` hands back is options with ArrayBuffers (it deserialised
 * them for navigator.credentials): back to the base64url JSON the authenticator reads.
 */
export function optionsJson<T>(options: unknown): T {
  return JSON.parse(
    JSON.stringify(options, (_key, value: unknown) =>
      value instanceof ArrayBuffer || ArrayBuffer.isView(value)
        ? b64url(
            value instanceof ArrayBuffer
              ? new Uint8Array(value)
              : new Uint8Array(value.buffer, value.byteOffset, value.byteLength),
          )
        : value,
    ),
  ) as T;
}
