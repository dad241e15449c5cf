import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const serverEntry = join(import.meta.dirname, '..', 'server.ts');

/** The real server process on a data directory; resolves with its URL once ready. */
function start(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [serverEntry], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO_DATA: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/UpNext is ready at (http:\/\/\S+)/);
      if (match?.[1]) resolve({ child, url: match[1] });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await done;
}

async function kidOf(url: string): Promise<string> {
  const response = await fetch(`${url}/auth/v1/.well-known/jwks.json`);
  const { keys } = (await response.json()) as { keys: Array<{ kid: string; d?: string }> };
  expect(keys).toHaveLength(1);
  expect(keys[0]?.d).toBeUndefined();
  return keys[0]?.kid as string;
}

describe('the server process and its auth key', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'upnext-auth-key-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('generates the signing key on first start (mode 0600) and signs with the same kid after a restart', async () => {
    const first = await start(dataDir);
    let kid: string;
    try {
      kid = await kidOf(first.url);
    } finally {
      await stop(first.child);
    }
    const file = join(dataDir, 'auth-keys', 'signing-key.pem');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const second = await start(dataDir);
    try {
      expect(await kidOf(second.url)).toBe(kid);
    } finally {
      await stop(second.child);
    }
  });
});
