import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IceServers } from '@upnext/contract/meetings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { turnPassword } from './ice-servers.ts';
import { createCalledVisitor, startMeeting } from './meetings.fixtures.ts';

/**
 * The credentials `GET /api/meetings/{id}/ice-servers` hands out work on a real coturn
 * (Debian's `turnserver`, started here with the REST secret): a TURN Allocate over UDP,
 * signed with the long-term credential mechanism (RFC 5389/5766), gets a relayed address;
 * a wrong secret or an expired credential is refused. (The browser-through-TURN call is the
 * web side's e2e test.)
 */
const hasTurnserver = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v turnserver'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const secret = `turn-test-${randomBytes(8).toString('hex')}`;
const realm = 'upnext.test';

// CI installs coturn (.ci/run), so there a missing turnserver fails instead of skipping.
describe.skipIf(!hasTurnserver && !process.env.CI).each(testDrivers)('TURN credentials on coturn (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let coturn: ChildProcess;
  let dir: string;
  let port: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'upnext-turn-'));
    port = await freeUdpPort();
    const relayFrom = 20_000 + Math.floor(Math.random() * 20_000);
    coturn = spawn(
      'turnserver',
      [
        '-n',
        '--listening-ip=127.0.0.1',
        `--listening-port=${port}`,
        '--relay-ip=127.0.0.1',
        `--min-port=${relayFrom}`,
        `--max-port=${relayFrom + 20}`,
        '--use-auth-secret',
        `--static-auth-secret=${secret}`,
        `--realm=${realm}`,
        '--no-tls',
        '--no-dtls',
        '--no-cli',
        '--allow-loopback-peers',
        `--pidfile=${join(dir, 'turnserver.pid')}`,
        `--db=${join(dir, 'turndb')}`,
        '--log-file=stdout',
        '--simple-log',
      ],
      { stdio: 'ignore' },
    );
    database = await createTestDatabase(driver);
    t = await buildTestApp(database, {
      TURN_URLS: `turn:127.0.0.1:${port}?transport=udp`,
      TURN_SECRET: secret,
    });
    await waitForTurn(port);
  }, 30_000);

  afterAll(async () => {
    coturn?.kill('SIGTERM');
    await t?.app.close();
    await database?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function credentialOfVisitor() {
    const world = await createCalledVisitor(t);
    const meeting = (await startMeeting(t, world.owner, world.session.id, world.tokenId)).json()
      .data;
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/meetings/${meeting.id}/ice-servers`,
      headers: world.visitor.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const turn = (response.json().data as IceServers).iceServers.find((s) => s.username);
    expect(turn?.urls).toEqual([`turn:127.0.0.1:${port}?transport=udp`]);
    return { username: turn?.username ?? '', password: turn?.credential ?? '' };
  }

  it('allocates a relay with the credential the API gave a meeting party', async () => {
    const credential = await credentialOfVisitor();
    const result = await allocate(port, credential);
    expect(result).toEqual({
      type: 'success',
      relayed: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
    });
  });

  it('refuses a credential signed with another secret, and an expired one', async () => {
    const { username } = await credentialOfVisitor();
    const forged = await allocate(port, {
      username,
      password: turnPassword('not-the-secret!', username),
    });
    expect(forged).toMatchObject({ type: 'error', code: 401 });

    const userId = username.split(':')[1];
    const expiredName = `${Math.floor(Date.now() / 1000) - 60}:${userId}`;
    const expired = await allocate(port, {
      username: expiredName,
      password: turnPassword(secret, expiredName),
    });
    expect(expired).toMatchObject({ type: 'error', code: 401 });
  });
});

// --- A minimal TURN client: just enough STUN (RFC 5389) for an authenticated Allocate ---

const MAGIC = 0x2112a442;
const ALLOCATE = 0x0003;
const attr = {
  username: 0x0006,
  messageIntegrity: 0x0008,
  errorCode: 0x0009,
  realm: 0x0014,
  nonce: 0x0015,
  xorRelayedAddress: 0x0016,
  requestedTransport: 0x0019,
} as const;

type Attribute = [number, Buffer];

function attribute([type, value]: Attribute): Buffer {
  const padded = Buffer.alloc(4 + Math.ceil(value.length / 4) * 4);
  padded.writeUInt16BE(type, 0);
  padded.writeUInt16BE(value.length, 2);
  value.copy(padded, 4);
  return padded;
}

function message(attributes: Attribute[], key?: Buffer): Buffer {
  const body = Buffer.concat(attributes.map(attribute));
  const header = Buffer.alloc(20);
  header.writeUInt16BE(ALLOCATE, 0);
  header.writeUInt32BE(MAGIC, 4);
  randomBytes(12).copy(header, 8);
  if (!key) {
    header.writeUInt16BE(body.length, 2);
    return Buffer.concat([header, body]);
  }
  // MESSAGE-INTEGRITY: HMAC-SHA1 over everything before it, the length already counting it.
  header.writeUInt16BE(body.length + 24, 2);
  const hmac = createHmac('sha1', key)
    .update(Buffer.concat([header, body]))
    .digest();
  return Buffer.concat([header, body, attribute([attr.messageIntegrity, hmac])]);
}

function parse(packet: Buffer) {
  const type = packet.readUInt16BE(0);
  const attributes = new Map<number, Buffer>();
  let offset = 20;
  while (offset + 4 <= 20 + packet.readUInt16BE(2)) {
    const kind = packet.readUInt16BE(offset);
    const length = packet.readUInt16BE(offset + 2);
    attributes.set(kind, packet.subarray(offset + 4, offset + 4 + length));
    offset += 4 + Math.ceil(length / 4) * 4;
  }
  return { type, attributes };
}

type AllocateResult =
  | { type: 'success'; relayed: string }
  | { type: 'error'; code: number; reason: string };

function result(packet: Buffer): AllocateResult & { realm?: string; nonce?: string } {
  const { type, attributes } = parse(packet);
  if (type === 0x0103) {
    const xor = attributes.get(attr.xorRelayedAddress);
    if (!xor) throw new Error('no XOR-RELAYED-ADDRESS');
    const relayedPort = xor.readUInt16BE(2) ^ (MAGIC >>> 16);
    const ip = (xor.readUInt32BE(4) ^ MAGIC) >>> 0;
    return {
      type: 'success',
      relayed: `${ip >>> 24}.${(ip >>> 16) & 255}.${(ip >>> 8) & 255}.${ip & 255}:${relayedPort}`,
    };
  }
  const error = attributes.get(attr.errorCode);
  return {
    type: 'error',
    code: error ? (error[2] ?? 0) * 100 + (error[3] ?? 0) : 0,
    reason: error ? error.subarray(4).toString('utf8') : '',
    ...(attributes.has(attr.realm) ? { realm: String(attributes.get(attr.realm)) } : {}),
    ...(attributes.has(attr.nonce) ? { nonce: String(attributes.get(attr.nonce)) } : {}),
  };
}

function exchange(socket: Socket, port: number, packet: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer from turnserver')), 2000);
    socket.once('message', (reply) => {
      clearTimeout(timer);
      resolve(reply);
    });
    socket.send(packet, port, '127.0.0.1');
  });
}

const transportUdp = Buffer.from([17, 0, 0, 0]);

/** An Allocate: unauthenticated first (401 with realm and nonce), then signed. */
async function allocate(
  port: number,
  credential: { username: string; password: string },
): Promise<AllocateResult> {
  const socket = createSocket('udp4');
  try {
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const challenge = result(
      await exchange(socket, port, message([[attr.requestedTransport, transportUdp]])),
    );
    if (challenge.type !== 'error' || challenge.code !== 401 || !challenge.nonce) {
      throw new Error(`expected a 401 challenge, got ${JSON.stringify(challenge)}`);
    }
    const key = createHash('md5')
      .update(`${credential.username}:${challenge.realm ?? realm}:${credential.password}`)
      .digest();
    const signed = message(
      [
        [attr.requestedTransport, transportUdp],
        [attr.username, Buffer.from(credential.username)],
        [attr.realm, Buffer.from(challenge.realm ?? realm)],
        [attr.nonce, Buffer.from(challenge.nonce)],
      ],
      key,
    );
    const {
      realm: _realm,
      nonce: _nonce,
      ...answer
    } = result(await exchange(socket, port, signed));
    return answer;
  } finally {
    socket.close();
  }
}

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  socket.close();
  return port;
}

/** Until turnserver answers an Allocate (with its 401 challenge). */
async function waitForTurn(port: number) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const socket = createSocket('udp4');
    try {
      await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
      await exchange(socket, port, message([[attr.requestedTransport, transportUdp]]));
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    } finally {
      socket.close();
    }
  }
}
