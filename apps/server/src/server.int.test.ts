import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client.ts';
import { companies } from './db/schema/index.ts';

const serverEntry = join(import.meta.dirname, 'server.ts');

type Running = { child: ChildProcess; url: string; output: () => string };

function start(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [serverEntry], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/UpNext is ready at (http:\/\/\S+)/);
      if (match?.[1]) resolve({ child, url: match[1], output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function run(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [serverEntry], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return exited(child).then((code) => ({ code, output }));
}

describe('the server process', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'upnext-server-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('starts on the embedded database, prints its URL and stops cleanly on SIGTERM', async () => {
    const server = await start({ DATA_DIR: dataDir });
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(existsSync(join(dataDir, 'server.pid'))).toBe(true);

    // An idle keep-alive connection must not hold the shutdown open.
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      http
        .get(`${server.url}/api/ready`, { agent }, (response) => {
          response.resume();
          response.on('end', resolve);
        })
        .on('error', reject);
    });

    server.child.kill('SIGTERM');
    expect(await exited(server.child)).toBe(0);
    agent.destroy();
    expect(server.output()).toContain('"msg":"stopped"');
    expect(existsSync(join(dataDir, 'server.pid'))).toBe(false);
  });

  it('refuses a second server on the same data directory', async () => {
    const first = await start({ DATA_DIR: dataDir });
    try {
      const second = await run({ DATA_DIR: dataDir, PORT: '0' });
      expect(second.code).not.toBe(0);
      expect(second.output).toContain('is in use by another UpNext server');
    } finally {
      first.child.kill('SIGTERM');
      await exited(first.child);
    }
  });

  it('keeps its data across restarts and seeds the demo only once', async () => {
    const again = await start({ DATA_DIR: dataDir });
    expect(again.output()).not.toContain('demo data seeded');
    again.child.kill('SIGTERM');
    expect(await exited(again.child)).toBe(0);

    const database = await openDatabase({ driver: 'pglite', dataDir: join(dataDir, 'pgdata') });
    try {
      expect(await database.db.$count(companies)).toBe(1);
    } finally {
      await database.close();
    }
  });

  it('stops at once with a message naming a bad variable', async () => {
    const result = await run({ DATA_DIR: dataDir, PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.output).toContain('PORT: must be a whole number (got "eighty")');
  });
});
