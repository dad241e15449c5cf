import { companyPlans } from '@upnext/contract/companies';
import { companyRoles, companyUserStatuses } from '@upnext/contract/members';
import { planStatuses } from '@upnext/contract/payments';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { authUsers } from './auth.ts';
import { isOneOf } from './values.ts';

export const companies = pgTable(
  'companies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    /** IANA zone; a session's date and times are read in it. */
    timezone: text('timezone').notNull(),
    /** ISO 3166-1 alpha-2: national phone numbers entered for the company are read in it. */
    country: text('country').notNull().default('GB'),
    currency: text('currency').notNull().default('USD'),
    logoUrl: text('logo_url'),
    contactEmail: text('contact_email'),
    contactPhone: text('contact_phone'),
    plan: text('plan', { enum: companyPlans }).notNull().default('free'),
    /** Billing state of a paid plan; a lapsed one moves the company back to Free, data kept. */
    planStatus: text('plan_status', { enum: planStatuses }).notNull().default('active'),
    /** End of the paid period; past it without a renewal, the plan lapses. Null on Free. */
    planRenewsAt: timestamp('plan_renews_at', { withTimezone: true }),
    /** The owner cancelled: the plan stays until `plan_renews_at`, then becomes Free. */
    planCancelsAtPeriodEnd: boolean('plan_cancels_at_period_end').notNull().default(false),
    /** The provider's subscription (Stripe) behind the plan, if any. */
    planSubscriptionRef: text('plan_subscription_ref'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('companies_plan_check', isOneOf(t.plan, companyPlans)),
    check('companies_plan_status_check', isOneOf(t.planStatus, planStatuses)),
    check('companies_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('companies_country_check', sql`${t.country} ~ '^[A-Z]{2}$'`),
    check('companies_slug_check', sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
  ],
);

export type CompanyRole = (typeof companyRoles)[number];

/** A user's place in a company. Roles are per company; any signed-in user is also a client. */
export const companyUsers = pgTable(
  'company_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    /** The address the invite went to (kept when the user later changes theirs). */
    email: text('email').notNull(),
    role: text('role', { enum: companyRoles }).notNull(),
    status: text('status', { enum: companyUserStatuses }).notNull().default('invited'),
    invitedBy: uuid('invited_by').references(() => authUsers.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('company_users_company_user_key').on(t.companyId, t.userId),
    index('company_users_user_idx').on(t.userId),
    check('company_users_role_check', isOneOf(t.role, companyRoles)),
    check('company_users_status_check', isOneOf(t.status, companyUserStatuses)),
  ],
);

/** What the app knows of a user beyond auth: display data and the private topic name. */
export const userProfiles = pgTable('user_profiles', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => authUsers.id, { onDelete: 'cascade' }),
  displayName: text('display_name').notNull().default(''),
  avatarUrl: text('avatar_url'),
  timezone: text('timezone'),
  /** Random, unique and stable: names `/topic/user/{subscribeId}` and `/topic/meeting/{subscribeId}`. */
  subscribeId: text('subscribe_id').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Tokens a company issued per calendar month (`YYYY-MM` in its zone), what the plan's
 * monthly token limit reads: kept by the database itself (the `queue_tokens_count` trigger of
 * migration 0009), counting every token by the month it joined, except those released
 * because their payment was not completed in time (`payment_expired`) and the numbers moved
 * bookings leave behind in their first session (`rescheduled`, migration 0011).
 */
export const companyTokenMonths = pgTable(
  'company_token_months',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    tokens: integer('tokens').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.month] }),
    check('company_token_months_tokens_check', sql`${t.tokens} >= 0`),
  ],
);
