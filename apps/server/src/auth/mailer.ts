import type { AuthConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { insertMailboxMessage, listMailboxMessages } from './dev-mailbox.repository.ts';

type MailAttachment = { filename: string; contentType: string; content: string };
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
};

export interface Mailer {
  readonly kind: 'smtp' | 'dev-mailbox';
  send(message: MailMessage): Promise<void>;
}

/**
 * A send gives up after this, connection included (nodemailer's own limits run to minutes):
 * the notification outbox's lease must outlast any send.
 */
const SMTP_SEND_TIMEOUT_MS = 20_000;

/**
 * Real delivery through an SMTP server (`smtp://user:pass@host:587`, `smtps://...`). `pooled`
 * keeps up to 8 connections open and reuses them (the notification outbox's volume: a new
 * connection per message caps a relay at ~200 a second), unless SMTP_URL sets `pool` itself.
 */
export function smtpMailer(smtpUrl: string, from: string, { pooled = false } = {}): Mailer {
  const url = new URL(smtpUrl);
  if (pooled && !url.searchParams.has('pool')) {
    url.searchParams.set('pool', 'true');
    url.searchParams.set('maxConnections', '8');
  }
  // Loaded only with SMTP configured: ~40 modules that a start with the dev mailbox skips.
  const transport = (async () => {
    const { default: nodemailer } = await import('nodemailer');
    return nodemailer.createTransport(url.toString());
  })();
  transport.catch(() => {}); // its error is the first send's
  return {
    kind: 'smtp',
    async send(message) {
      await (await transport).sendMail({
        from,
        ...message,
        signal: AbortSignal.timeout(SMTP_SEND_TIMEOUT_MS),
      });
    },
  };
}

/** Without SMTP, mail is kept in a table and shown to developers (never in production). */
function devMailboxMailer(db: Db): Mailer {
  return {
    kind: 'dev-mailbox',
    async send({ attachments, ...message }) {
      // The mailbox keeps the text; attachments are named so a developer sees they went out.
      const names = attachments?.map((file) => file.filename).join(', ');
      const text = names ? `${message.text}\n\nAttached: ${names}` : message.text;
      await insertMailboxMessage(db, { ...message, text });
    },
  };
}

/** SMTP when SMTP_URL is set, the developer mailbox otherwise. */
export function mailerFor(auth: AuthConfig, db: Db, options: { pooled?: boolean } = {}): Mailer {
  return auth.smtpUrl ? smtpMailer(auth.smtpUrl, auth.smtpFrom, options) : devMailboxMailer(db);
}

/** The mailbox holds email and SMS; `to` is an address or a phone number (`+` optional). */
export async function readDevMailbox(db: Db, to: string | undefined, limit = 50) {
  const phone = to
    ?.trim()
    .replace(/^\+/, '')
    .replace(/[\s\-.()]/g, '');
  if (to && phone && /^\d{7,15}$/.test(phone)) to = `+${phone}`;
  const rows = await listMailboxMessages(db, to?.trim().toLowerCase(), limit);
  return rows.map((row) => ({
    id: row.id,
    to: row.to,
    subject: row.subject,
    text: row.text,
    html: row.html,
    created_at: row.createdAt.toISOString(),
  }));
}
