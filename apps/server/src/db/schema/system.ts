import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Small facts about this installation, e.g. when demo data was seeded (so it is seeded once). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
