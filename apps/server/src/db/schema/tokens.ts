import type { IntakeAnswer } from '@upnext/contract/intake';
import { defaultLanguage, languageCodes } from '@upnext/contract/languages';
import { type TokenStatus, tokenKinds, tokenStatuses } from '@upnext/contract/tokens';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import {
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
import { authUsers } from './auth.ts';
import { sessionServices, sessions } from './sessions.ts';
import { isOneOf } from './values.ts';

/** Statuses a token can still move on from; the rest are final. */
export const liveTokenStatuses: readonly TokenStatus[] = [
  'pending_payment',
  'booked',
  'waiting',
  'called',
  'serving',
];

/**
 * A token at a desk: called, or being served. Its holder may be in a call with staff, and the
 * session's "now serving" and number of staff calling are read from these (a partial index).
 */
export const atDeskStatuses = ['called', 'serving'] as const satisfies readonly TokenStatus[];

const visitKeySql = sql`rtrim(translate(encode(decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'), 'base64'), '+/', '-_'), '=')`;

/**
 * A place in a session's queue: a walk-in token or a booked slot. Numbers come from the
 * session's counter under its row lock, so they are unique and gap-free per session.
 */
export const queueTokens = pgTable(
  'queue_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    /** The queue's prefix and the number, as called out: "A-017". */
    displayNumber: text('display_number').notNull(),
    kind: text('kind', { enum: tokenKinds }).notNull(),
    sessionServiceId: uuid('session_service_id').references(() => sessionServices.id, {
      onDelete: 'restrict',
    }),
    slotNo: integer('slot_no'),
    /** The slot's start, copied so ordering by "slot has started" needs no join. */
    slotStartsAt: timestamp('slot_starts_at', { withTimezone: true }),
    /** The visitor: a user, or a walk-in without an account issued by staff. */
    userId: uuid('user_id').references(() => authUsers.id, { onDelete: 'set null' }),
    visitorName: text('visitor_name').notNull().default(''),
    visitorEmail: text('visitor_email'),
    visitorPhone: text('visitor_phone'),
    /** The language of the page the token was taken from: its holder's messages are in it. */
    language: text('language', { enum: languageCodes }).notNull().default(defaultLanguage),
    status: text('status', { enum: tokenStatuses }).notNull(),
    priority: integer('priority').notNull().default(0),
    notes: text('notes').notNull().default(''),
    /** A booking's answers to its queue's intake questions, with the labels asked. */
    intakeAnswers: jsonb('intake_answers')
      .$type<IntakeAnswer[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    issuedBy: uuid('issued_by').references(() => authUsers.id, { onDelete: 'set null' }),
    calledBy: uuid('called_by').references(() => authUsers.id, { onDelete: 'set null' }),
    recallCount: integer('recall_count').notNull().default(0),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull(),
    calledAt: timestamp('called_at', { withTimezone: true }),
    servingStartedAt: timestamp('serving_started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelReason: text('cancel_reason'),
    /** The client's `Idempotency-Key` of the request that took it: a repeat gets this token. */
    idempotencyKey: text('idempotency_key'),
    /** How long the service took; feeds the estimated wait. */
    serviceSeconds: integer('service_seconds'),
    /**
     * The key of the token's status link (contract visits.ts): 32 bytes from two version-4
     * UUIDs (244 random bits from the server's strong random source), base64url, 43 characters.
     * Made by the database so every way a token is inserted gets one.
     */
    statusKey: text('status_key').notNull().default(visitKeySql),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('queue_tokens_session_number_key').on(t.sessionId, t.number),
    uniqueIndex('queue_tokens_idempotency_key')
      .on(t.sessionId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    index('queue_tokens_session_status_idx').on(t.sessionId, t.status),
    index('queue_tokens_user_idx').on(t.userId),
    // The last calls of a session (the board, the session topic) without reading its line.
    index('queue_tokens_session_called_idx')
      .on(t.sessionId, t.calledAt.desc().nullsFirst(), t.number.desc().nullsFirst())
      .where(sql`${t.calledAt} is not null`),
    // The tokens at a desk (called or being served): who is now served and by how many staff,
    // read on every change without passing over the session's other tokens. Without it a
    // planner with a young table's statistics filters every token of the session by status.
    index('queue_tokens_session_at_desk_idx')
      .on(t.sessionId, t.calledAt.desc().nullsFirst())
      .where(isOneOf(t.status, atDeskStatuses)),
    index('queue_tokens_slot_idx').on(t.sessionServiceId, t.slotNo),
    uniqueIndex('queue_tokens_status_key').on(t.statusKey),
    check('queue_tokens_number_check', sql`${t.number} >= 1`),
    check('queue_tokens_kind_check', isOneOf(t.kind, tokenKinds)),
    check('queue_tokens_status_check', isOneOf(t.status, tokenStatuses)),
    check('queue_tokens_language_check', isOneOf(t.language, languageCodes)),
    check(
      'queue_tokens_booking_check',
      sql`(${t.kind} = 'booking') = (${t.sessionServiceId} is not null and ${t.slotNo} is not null)`,
    ),
    check(
      'queue_tokens_service_seconds_check',
      sql`${t.serviceSeconds} is null or ${t.serviceSeconds} >= 0`,
    ),
  ],
);

/**
 * Why a booking's old number stays taken when it moves to another session: a cancelled row
 * that keeps numbers gap-free but is no visit of anyone (reports and plan counts skip it; the
 * count trigger of migration 0013 names the same reason).
 */
export const MOVED_AWAY_REASON = 'rescheduled';

/** A token row that is a visit: every row but a moved booking's number left behind. */
export const isVisit = sql`${queueTokens.cancelReason} is distinct from ${sql.raw(`'${MOVED_AWAY_REASON}'`)}`;

/**
 * The visits whose times count (service-time-query, reports): served, with a recorded
 * service time. Their service time is `service_seconds`; their wait, `tokenWaitSeconds`.
 */
export const timedVisit = and(
  eq(queueTokens.status, 'served'),
  isNotNull(queueTokens.serviceSeconds),
);

/**
 * How long a visitor waited, in seconds: from joining the line (a booking: from its slot's
 * start, not from the day it was booked) to being called; never below zero (a booking called
 * early did not wait).
 */
export const tokenWaitSeconds = sql<number>`greatest(0, extract(epoch from (${queueTokens.calledAt} - greatest(${queueTokens.joinedAt}, coalesce(${queueTokens.slotStartsAt}, ${queueTokens.joinedAt})))))`;
