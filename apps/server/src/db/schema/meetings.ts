import { meetingStates } from '@upnext/contract/meetings';
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { authUsers } from './auth.ts';
import { sessions } from './sessions.ts';
import { queueTokens } from './tokens.ts';
import { isOneOf } from './values.ts';

/**
 * A video consultation between a staff member and the holder of the token being served:
 * `ringing` → `active` → `ended`, or `declined`, or `missed` when nobody answered by
 * `ringing_until`. Media and files go peer to peer; this row only decides who may signal whom.
 */
export const meetings = pgTable(
  'meetings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    tokenId: uuid('token_id')
      .notNull()
      .references(() => queueTokens.id, { onDelete: 'cascade' }),
    staffUserId: uuid('staff_user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    visitorUserId: uuid('visitor_user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    state: text('state', { enum: meetingStates }).notNull().default('ringing'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    ringingUntil: timestamp('ringing_until', { withTimezone: true }).notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    /** When it ended, was declined or was missed. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    // At most one live meeting per token: a second "Video call" is a conflict, not a 2nd ring.
    uniqueIndex('meetings_live_token_key')
      .on(t.tokenId)
      .where(sql`${t.state} in ('ringing', 'active')`),
    // The missed-call sweep: ringing rows by deadline.
    index('meetings_ringing_idx').on(t.ringingUntil).where(sql`${t.state} = 'ringing'`),
    index('meetings_staff_idx').on(t.staffUserId, t.createdAt),
    index('meetings_visitor_idx').on(t.visitorUserId, t.createdAt),
    check('meetings_state_check', isOneOf(t.state, meetingStates)),
    check('meetings_parties_check', sql`${t.staffUserId} <> ${t.visitorUserId}`),
    check(
      'meetings_ended_check',
      sql`(${t.state} in ('ringing', 'active')) = (${t.endedAt} is null)`,
    ),
    check(
      'meetings_answered_check',
      sql`(${t.state} <> 'active' or ${t.answeredAt} is not null) and (${t.state} <> 'ringing' or ${t.answeredAt} is null)`,
    ),
  ],
);
