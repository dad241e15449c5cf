import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../lib/logger.ts';
import { type AuthServer, startAuthServer, uniqueEmail } from './testing.ts';

describe('auth secrets stay out of the logs', () => {
  const lines: string[] = [];
  let server: AuthServer;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    const logger = pino(loggerOptions({ logLevel: 'trace', env: 'test' }), sink);
    server = await startAuthServer('pglite', {}, { logger });
  });
  afterAll(() => server?.close());

  it('logs requests of a whole sign-up, link, sign-in and refresh without passwords, tokens or codes', async () => {
    const email = uniqueEmail('logs');
    const password = 'a very secret password';
    const client = server.client();
    await client.signUp({ email, password });
    const { link, code } = await server.lastMail(email);
    const linkToken = new URL(link as string).searchParams.get('token') as string;
    const landed = await fetch(link as string, { redirect: 'manual' });
    expect(landed.status).toBe(303);
    const signedIn = await client.signInWithPassword({ email, password });
    const refreshed = await client.refreshSession();
    const secrets = [
      password,
      linkToken,
      signedIn.data.session?.access_token,
      signedIn.data.session?.refresh_token,
      refreshed.data.session?.refresh_token,
    ];
    const log = lines.join('');
    expect(log).toContain('/auth/v1/verify?token=[redacted]&type=[redacted]');
    expect(lines.length).toBeGreaterThan(8);
    for (const secret of secrets) {
      expect(secret).toEqual(expect.any(String));
      expect(log).not.toContain(secret as string);
    }
    // Mail bodies (which carry the code) are not logged either.
    expect(log).not.toContain(`code: ${code}`);
  });
});
