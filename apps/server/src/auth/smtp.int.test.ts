import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authDevMailbox } from '../db/schema/auth.ts';
import { type AuthServer, startAuthServer, uniqueEmail } from './testing.ts';

type Received = { from: string; to: string[]; data: string; user: string | undefined };

describe('mail through SMTP_URL', () => {
  const received: Received[] = [];
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
        stream.on('end', () => {
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
    expect(received).toHaveLength(1);
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
});
