import { sessionStatuses, slotStatuses } from '@upnext/contract/sessions';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  time,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { queues, serviceTypes, subQueues } from './queues.ts';
import { isOneOf } from './values.ts';

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    queueId: uuid('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    subQueueId: uuid('sub_queue_id').references(() => subQueues.id, { onDelete: 'set null' }),
    /** Local date and times in `timezone` (the company's zone when scheduled)... */
    date: date('date').notNull(),
    startTime: time('start_time').notNull(),
    endTime: time('end_time').notNull(),
    timezone: text('timezone').notNull(),
    /** ...and the same window as instants, for ordering, overlap checks and "has it started". */
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    capacity: integer('capacity').notNull(),
    status: text('status', { enum: sessionStatuses }).notNull().default('scheduled'),
    online: boolean('online').notNull().default(false),
    /** Staff only. */
    notes: text('notes').notNull().default(''),
    /** Shown to visitors (join page, their token, the board). */
    visitorNotes: text('visitor_notes').notNull().default(''),
    /** Sessions created by one recurring schedule share a series id. */
    seriesId: uuid('series_id'),
    lastIssuedNumber: integer('last_issued_number').notNull().default(0),
    /** Numbers whose place was given back (a payment hold that expired): capacity counts the rest. */
    releasedPlaces: integer('released_places').notNull().default(0),
    /**
     * How many of the session's tokens are in each status, kept by the database itself (the
     * `queue_tokens_count` trigger of migration 0009, on every insert, status change and
     * delete), so live counts read one row instead of counting the tokens.
     */
    tokensPendingPayment: integer('tokens_pending_payment').notNull().default(0),
    tokensBooked: integer('tokens_booked').notNull().default(0),
    tokensWaiting: integer('tokens_waiting').notNull().default(0),
    tokensCalled: integer('tokens_called').notNull().default(0),
    tokensServing: integer('tokens_serving').notNull().default(0),
    tokensServed: integer('tokens_served').notNull().default(0),
    tokensNoShow: integer('tokens_no_show').notNull().default(0),
    tokensCancelled: integer('tokens_cancelled').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sessions_queue_date_idx').on(t.queueId, t.date),
    index('sessions_sub_queue_window_idx').on(t.subQueueId, t.startsAt),
    index('sessions_series_idx').on(t.seriesId),
    check('sessions_status_check', isOneOf(t.status, sessionStatuses)),
    check('sessions_window_check', sql`${t.endsAt} > ${t.startsAt}`),
    check('sessions_capacity_check', sql`${t.capacity} between 0 and 100000`),
    check(
      'sessions_counter_check',
      sql`${t.releasedPlaces} between 0 and ${t.lastIssuedNumber} and ${t.lastIssuedNumber} - ${t.releasedPlaces} <= ${t.capacity}`,
    ),
    check(
      'sessions_token_counts_check',
      sql`least(${t.tokensPendingPayment}, ${t.tokensBooked}, ${t.tokensWaiting}, ${t.tokensCalled}, ${t.tokensServing}, ${t.tokensServed}, ${t.tokensNoShow}, ${t.tokensCancelled}) >= 0`,
    ),
  ],
);

/** A service type offered in one session (the spec's `serviceId`), cut into slots. */
export const sessionServices = pgTable(
  'session_services',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    serviceTypeId: uuid('service_type_id')
      .notNull()
      .references(() => serviceTypes.id, { onDelete: 'restrict' }),
    slotMinutes: integer('slot_minutes').notNull(),
    capacityPerSlot: integer('capacity_per_slot').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('session_services_session_idx').on(t.sessionId),
    check('session_services_slot_minutes_check', sql`${t.slotMinutes} between 1 and 1440`),
    check('session_services_capacity_check', sql`${t.capacityPerSlot} between 0 and 10000`),
  ],
);

export const slots = pgTable(
  'slots',
  {
    sessionServiceId: uuid('session_service_id')
      .notNull()
      .references(() => sessionServices.id, { onDelete: 'cascade' }),
    slotNo: integer('slot_no').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    capacity: integer('capacity').notNull(),
    bookedCount: integer('booked_count').notNull().default(0),
    status: text('status', { enum: slotStatuses }).notNull().default('open'),
  },
  (t) => [
    primaryKey({ columns: [t.sessionServiceId, t.slotNo] }),
    check('slots_status_check', isOneOf(t.status, slotStatuses)),
    check('slots_booked_check', sql`${t.bookedCount} between 0 and ${t.capacity}`),
    check('slots_slot_no_check', sql`${t.slotNo} >= 1`),
  ],
);
