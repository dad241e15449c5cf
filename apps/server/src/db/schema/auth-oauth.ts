import { index, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { authSchema, authUsers } from './auth.ts';

/**
 * An OAuth sign-in (or identity link) on its way through the provider: created by
 * /authorize, consumed once by /callback. The `state` the provider carries is a signed,
 * expiring reference to this row; the upstream nonce and PKCE verifier are derived from its
 * id with the server's key, so no secret is stored here.
 */
export const authOAuthStates = authSchema.table(
  'oauth_states',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    /** Already allow-listed. */
    redirectTo: text('redirect_to').notNull(),
    /** The app's PKCE challenge (S256); null for the implicit flow. */
    codeChallenge: text('code_challenge'),
    /** Set when a signed-in user links this provider to their account. */
    linkUserId: uuid('link_user_id').references(() => authUsers.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('oauth_states_expires_idx').on(t.expiresAt)],
);
