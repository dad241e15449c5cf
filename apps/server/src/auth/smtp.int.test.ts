import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authDevMailbox, authUsers } from '../db/schema/auth.ts';
import { type AuthServer, startAuthServer, uniqueEmail } from './testing.ts';

type Received = { from: string; to: string[]; data: string; user: string | undefined };

/** Waits for something the server does after answering (mail is delivered in the background). */
async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('mail through SMTP_URL', () => {
  const received: Received[] = [];
  /** How the SMTP server treats the next messages: slow, or refusing them. */
  const behaviour = { delayMs: 0, refuse: false };
  let smtp: SMTPServer;
  let server: AuthServer;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      onAuth(auth, _session, callback) {
        if (auth.username === 'mailer' && auth.password === 's3cret') {
          callback(null, { user: auth.username });
        } else {
          callback(new Error('bad credentials'));
        }
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', async () => {
          await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
          if (behaviour.refuse) {
            callback(new Error('mailbox unavailable'));
            return;
          }
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            data: Buffer.concat(chunks).toString('utf8'),
            user: session.user as string | undefined,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    server = await startAuthServer('pglite', {
      SMTP_URL: `smtp://mailer:s3cret@127.0.0.1:${port}`,
      SMTP_FROM: 'UpNext <auth@upnext.test>',
    });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('delivers the confirmation mail to the SMTP server, authenticated, and keeps nothing in the dev mailbox', async () => {
    const email = uniqueEmail('smtp');
    const { error } = await server.client().signUp({ email, password: 'correct horse battery' });
    expect(error).toBeNull();
    await until(() => received.length === 1);
    const [mail] = received;
    expect(mail?.user).toBe('mailer');
    expect(mail?.from).toBe('auth@upnext.test');
    expect(mail?.to).toEqual([email]);
    expect(mail?.data).toMatch(/Subject: Confirm your UpNext account/);
    expect(mail?.data).toContain('text/html');
    const code = /code: (\d{6})/.exec(mail?.data ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(await server.db.select().from(authDevMailbox)).toEqual([]);

    const verified = await server
      .client()
      .verifyOtp({ email, token: code as string, type: 'signup' });
    expect(verified.error).toBeNull();
  });

  it('answers recover in the same time for known and unknown addresses even when SMTP is slow or failing', async () => {
    const known = uniqueEmail('known');
    await server.db.insert(authUsers).values({ email: known, emailConfirmedAt: new Date() });
    const recover = async (email: string) => {
      const started = performance.now();
      const response = await fetch(`${server.authUrl}/recover`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json;charset=UTF-8',
          'x-supabase-api-version': '2024-01-01',
        },
        body: JSON.stringify({ email }),
      });
      return {
        status: response.status,
        body: await response.json(),
        ms: performance.now() - started,
      };
    };
    behaviour.delayMs = 800;
    const before = received.length;
    const slowKnown = await recover(known);
    const unknown = await recover(uniqueEmail('unknown'));
    expect([slowKnown.status, slowKnown.body]).toEqual([200, {}]);
    expect([unknown.status, unknown.body]).toEqual([200, {}]);
    expect(slowKnown.ms).toBeLessThan(500);
    await until(() => received.length === before + 1);
    expect(received.at(-1)?.to).toEqual([known]);

    behaviour.delayMs = 0;
    behaviour.refuse = true;
    try {
      const failing = await recover(known);
      expect([failing.status, failing.body]).toEqual([200, {}]);
    } finally {
      behaviour.refuse = false;
    }
  });
});
