// The schema drizzle-kit reads and the typed client is built from.
export * from './auth.ts';
export * from './auth-oauth.ts';
export * from './companies.ts';
export * from './meetings.ts';
export * from './notifications.ts';
export * from './payments.ts';
export * from './queues.ts';
export * from './sessions.ts';
export * from './system.ts';
export * from './tokens.ts';
