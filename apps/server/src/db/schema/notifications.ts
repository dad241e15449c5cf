import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { isOneOf } from './values.ts';

export const notificationChannels = ['email', 'sms'] as const;
export const notificationStatuses = ['pending', 'sending', 'sent', 'failed'] as const;

export type NotificationAttachment = { filename: string; contentType: string; content: string };

/**
 * The outbox: a message is written in the same transaction as the change it tells about, and
 * a worker delivers it afterwards with retries, so a crash loses nothing and a rolled-back
 * change sends nothing.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Write order: a recipient's messages go out in this order. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    channel: text('channel', { enum: notificationChannels }).notNull(),
    recipient: text('recipient').notNull(),
    template: text('template').notNull(),
    subject: text('subject').notNull().default(''),
    text: text('text').notNull(),
    html: text('html'),
    attachments: jsonb('attachments')
      .$type<NotificationAttachment[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    status: text('status', { enum: notificationStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the worker may (re)try; while sending, the end of its lease. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Makes a message once-only, e.g. `reminder:<tokenId>:email`. */
    dedupeKey: text('dedupe_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The outbox's claim: unsent messages by due time (sent ones pile up and are not in it),
    // and a recipient's earlier unsent message, which holds back their later ones.
    index('notifications_due_idx')
      .on(t.nextAttemptAt, t.seq)
      .where(sql`${t.status} in ('pending', 'sending')`),
    index('notifications_unsent_recipient_idx')
      .on(t.recipient, t.seq)
      .where(sql`${t.status} in ('pending', 'sending')`),
    uniqueIndex('notifications_dedupe_key').on(t.dedupeKey),
    check('notifications_channel_check', isOneOf(t.channel, notificationChannels)),
    check('notifications_status_check', isOneOf(t.status, notificationStatuses)),
  ],
);
