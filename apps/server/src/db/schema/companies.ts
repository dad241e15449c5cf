import { sql } from 'drizzle-orm';
import { check, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const companyPlans = ['free', 'pro', 'business'] as const;

export const companies = pgTable(
  'companies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    /** IANA zone; a session's date and times are read in it. */
    timezone: text('timezone').notNull(),
    currency: text('currency').notNull().default('USD'),
    logoUrl: text('logo_url'),
    contactEmail: text('contact_email'),
    contactPhone: text('contact_phone'),
    plan: text('plan', { enum: companyPlans }).notNull().default('free'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('companies_plan_check', sql`${t.plan} in ('free', 'pro', 'business')`),
    check('companies_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('companies_slug_check', sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
  ],
);
