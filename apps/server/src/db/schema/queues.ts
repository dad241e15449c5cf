import type { IntakeQuestion } from '@upnext/contract/intake';
import { queueModes, queueStatuses, queueVisibilities } from '@upnext/contract/queues';
import { joinRequestStatuses } from '@upnext/contract/requests';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { authUsers } from './auth.ts';
import { companies } from './companies.ts';
import { isOneOf } from './values.ts';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const queues = pgTable(
  'queues',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Short public code typed on /join or encoded in the QR code. */
    joinCode: text('join_code').notNull().unique(),
    tokenPrefix: text('token_prefix').notNull().default(''),
    mode: text('mode', { enum: queueModes }).notNull().default('walk_in'),
    online: boolean('online').notNull().default(false),
    visibility: text('visibility', { enum: queueVisibilities }).notNull().default('public'),
    /** Price of a token in minor units; null when the queue is free. */
    priceMinor: integer('price_minor'),
    currency: text('currency'),
    /**
     * A visitor who cancels a paid place at least this many minutes before it starts (the slot,
     * or the session for a walk-in) is refunded `refund_percent`; later, nothing. Staff and
     * session cancellations always refund in full.
     */
    cancelNoticeMinutes: integer('cancel_notice_minutes').notNull().default(0),
    refundPercent: integer('refund_percent').notNull().default(100),
    /** Visitors cancel or reschedule a booking themselves until this long before its slot. */
    changeCutoffMinutes: integer('change_cutoff_minutes').notNull().default(0),
    /** The intake questions visitors answer (checked by the contract's schema on write). */
    intakeQuestions: jsonb('intake_questions')
      .$type<IntakeQuestion[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    tokensPerVisitor: integer('tokens_per_visitor').notNull().default(1),
    turnApproachingThreshold: integer('turn_approaching_threshold').notNull().default(3),
    status: text('status', { enum: queueStatuses }).notNull().default('active'),
    ...timestamps,
  },
  (t) => [
    index('queues_company_idx').on(t.companyId),
    check('queues_mode_check', isOneOf(t.mode, queueModes)),
    check('queues_visibility_check', isOneOf(t.visibility, queueVisibilities)),
    check('queues_status_check', isOneOf(t.status, queueStatuses)),
    check('queues_join_code_check', sql`${t.joinCode} ~ '^[A-Z0-9]{4,12}$'`),
    check('queues_token_prefix_check', sql`${t.tokenPrefix} ~ '^[A-Z0-9]{0,4}$'`),
    check(
      'queues_price_check',
      sql`(${t.priceMinor} is null and ${t.currency} is null) or (${t.priceMinor} > 0 and ${t.currency} ~ '^[A-Z]{3}$')`,
    ),
    check('queues_cancel_notice_check', sql`${t.cancelNoticeMinutes} between 0 and 43200`),
    check('queues_change_cutoff_check', sql`${t.changeCutoffMinutes} between 0 and 43200`),
    check('queues_intake_questions_check', sql`jsonb_typeof(${t.intakeQuestions}) = 'array'`),
    check('queues_refund_percent_check', sql`${t.refundPercent} between 0 and 100`),
    check('queues_tokens_per_visitor_check', sql`${t.tokensPerVisitor} between 1 and 20`),
    check('queues_threshold_check', sql`${t.turnApproachingThreshold} between 0 and 50`),
  ],
);

export const subQueues = pgTable(
  'sub_queues',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    queueId: uuid('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [index('sub_queues_queue_idx').on(t.queueId)],
);

export const serviceTypes = pgTable(
  'service_types',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    queueId: uuid('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    durationMinutes: integer('duration_minutes').notNull(),
    priceMinor: integer('price_minor'),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    index('service_types_queue_idx').on(t.queueId),
    check('service_types_duration_check', sql`${t.durationMinutes} between 1 and 1440`),
    check('service_types_price_check', sql`${t.priceMinor} is null or ${t.priceMinor} >= 0`),
  ],
);

export const serviceAreas = pgTable(
  'service_areas',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    queueId: uuid('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    address: text('address').notNull().default(''),
    city: text('city').notNull().default(''),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    phone: text('phone'),
    notes: text('notes').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    index('service_areas_queue_idx').on(t.queueId),
    check(
      'service_areas_latitude_check',
      sql`${t.latitude} is null or ${t.latitude} between -90 and 90`,
    ),
    check(
      'service_areas_longitude_check',
      sql`${t.longitude} is null or ${t.longitude} between -180 and 180`,
    ),
  ],
);

/** Staff assigned to serve a sub-queue ("my sessions" reads it); company members only. */
export const subQueueStaff = pgTable(
  'sub_queue_staff',
  {
    subQueueId: uuid('sub_queue_id')
      .notNull()
      .references(() => subQueues.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.subQueueId, t.userId] }),
    index('sub_queue_staff_user_idx').on(t.userId),
  ],
);

/** A request to join a private queue; one per queue and user (asking again reopens it). */
export const joinRequests = pgTable(
  'join_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    queueId: uuid('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    message: text('message').notNull().default(''),
    status: text('status', { enum: joinRequestStatuses }).notNull().default('pending'),
    decidedBy: uuid('decided_by').references(() => authUsers.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('join_requests_queue_user_key').on(t.queueId, t.userId),
    index('join_requests_user_idx').on(t.userId),
    check('join_requests_status_check', isOneOf(t.status, joinRequestStatuses)),
  ],
);

/** A discount a company offers its clients, for one queue or all of them. */
export const clientPromotions = pgTable(
  'client_promotions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    queueId: uuid('queue_id').references(() => queues.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    code: text('code'),
    discountPercent: integer('discount_percent').notNull(),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validTo: timestamp('valid_to', { withTimezone: true }),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    index('client_promotions_company_idx').on(t.companyId),
    check('client_promotions_discount_check', sql`${t.discountPercent} between 1 and 100`),
    check(
      'client_promotions_window_check',
      sql`${t.validFrom} is null or ${t.validTo} is null or ${t.validFrom} < ${t.validTo}`,
    ),
  ],
);
