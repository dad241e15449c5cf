import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgSchema,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * The GoTrue-compatible auth service's tables, in a PostgreSQL schema of their own. Secrets
 * are never stored in a usable form: refresh tokens and one-time tokens only as hashes.
 */
export const authSchema = pgSchema('auth');

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const authUsers = authSchema.table(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    aud: text('aud').notNull().default('authenticated'),
    role: text('role').notNull().default('authenticated'),
    /** Stored lower-cased; unique case-insensitively. */
    email: text('email'),
    /** Digits only, no leading `+`. */
    phone: text('phone'),
    /** argon2id for new passwords; bcrypt ($2a/$2b/$2y) for imported ones until next sign-in. */
    encryptedPassword: text('encrypted_password'),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    phoneConfirmedAt: timestamp('phone_confirmed_at', { withTimezone: true }),
    confirmationSentAt: timestamp('confirmation_sent_at', { withTimezone: true }),
    recoverySentAt: timestamp('recovery_sent_at', { withTimezone: true }),
    emailChange: text('email_change'),
    emailChangeSentAt: timestamp('email_change_sent_at', { withTimezone: true }),
    phoneChange: text('phone_change'),
    phoneChangeSentAt: timestamp('phone_change_sent_at', { withTimezone: true }),
    reauthenticationSentAt: timestamp('reauthentication_sent_at', { withTimezone: true }),
    invitedAt: timestamp('invited_at', { withTimezone: true }),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    appMetadata: jsonb('raw_app_meta_data')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    userMetadata: jsonb('raw_user_meta_data')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    isAnonymous: boolean('is_anonymous').notNull().default(false),
    isSsoUser: boolean('is_sso_user').notNull().default(false),
    bannedUntil: timestamp('banned_until', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_phone_key').on(t.phone),
  ],
);

export const authIdentities = authSchema.table(
  'identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The provider's subject id; for email identities the user id. */
    providerId: text('provider_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    identityData: jsonb('identity_data').$type<Record<string, unknown>>().notNull(),
    email: text('email'),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('identities_provider_key').on(t.providerId, t.provider),
    index('identities_user_id_idx').on(t.userId),
  ],
);

export type AmrEntry = { method: string; timestamp: number };

export const authSessions = authSchema.table(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    aal: text('aal', { enum: ['aal1', 'aal2', 'aal3'] })
      .notNull()
      .default('aal1'),
    /** Authentication methods used in this session, newest first. */
    amr: jsonb('amr').$type<AmrEntry[]>().notNull(),
    /** For MFA (a later migration adds the factors table this will reference). */
    factorId: uuid('factor_id'),
    userAgent: text('user_agent'),
    ip: text('ip'),
    notAfter: timestamp('not_after', { withTimezone: true }),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export const authRefreshTokens = authSchema.table(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Hex SHA-256 of the token handed to the client; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    /** The token this one replaced. */
    parentId: uuid('parent_id'),
    revoked: boolean('revoked').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('refresh_tokens_token_hash_key').on(t.tokenHash),
    index('refresh_tokens_session_id_idx').on(t.sessionId, t.revoked),
  ],
);

export const oneTimeTokenTypes = [
  'confirmation_token',
  'recovery_token',
  'magiclink_token',
  'reauthentication_token',
  'email_change_token_new',
  'email_change_token_current',
  'phone_change_token',
  'invite_token',
] as const;
export type OneTimeTokenType = (typeof oneTimeTokenTypes)[number];

export const authOneTimeTokens = authSchema.table(
  'one_time_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    tokenType: text('token_type', { enum: oneTimeTokenTypes }).notNull(),
    /** Hex SHA-256 of the link token (the `token` / `token_hash` a link carries). */
    tokenHash: text('token_hash').notNull(),
    /** Keyed hash of the address and the short code typed by hand. */
    otpHash: text('otp_hash').notNull(),
    /** The address the token was sent to (email or phone). */
    relatesTo: text('relates_to').notNull(),
    /** Where the link sends the browser after verification (already allow-listed). */
    redirectTo: text('redirect_to'),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('one_time_tokens_token_hash_key').on(t.tokenHash),
    uniqueIndex('one_time_tokens_user_type_key').on(t.userId, t.tokenType),
  ],
);

/** PKCE and OAuth flow states (used by later work: PKCE exchange, OAuth providers). */
export const authFlowStates = authSchema.table(
  'flow_states',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => authUsers.id, { onDelete: 'cascade' }),
    /** Hex SHA-256 of the auth code. */
    authCodeHash: text('auth_code_hash').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    codeChallengeMethod: text('code_challenge_method', { enum: ['s256', 'plain'] }).notNull(),
    providerType: text('provider_type').notNull(),
    authenticationMethod: text('authentication_method').notNull(),
    redirectTo: text('redirect_to'),
    providerAccessToken: text('provider_access_token'),
    providerRefreshToken: text('provider_refresh_token'),
    authCodeIssuedAt: timestamp('auth_code_issued_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex('flow_states_auth_code_hash_key').on(t.authCodeHash)],
);

/** What a WebAuthn credential needs for later assertions (public key and counter, not secret). */
export type WebAuthnCredentialJson = {
  /** base64url credential id and COSE public key. */
  id: string;
  publicKey: string;
  counter: number;
  transports: string[];
};

/**
 * MFA factors (TOTP; phone; WebAuthn). The TOTP secret is stored encrypted (AES-256-GCM); a
 * WebAuthn factor keeps its credential's public key, which is not secret.
 */
export const authMfaFactors = authSchema.table(
  'mfa_factors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    friendlyName: text('friendly_name'),
    factorType: text('factor_type', { enum: ['totp', 'phone', 'webauthn'] }).notNull(),
    status: text('status', { enum: ['unverified', 'verified'] })
      .notNull()
      .default('unverified'),
    /** base64url(iv | tag | ciphertext) of the base32 TOTP secret. */
    secret: text('secret'),
    /** Digits only, no leading `+` (phone factors). */
    phone: text('phone'),
    /** The highest TOTP time step accepted: a code is never accepted twice. */
    lastUsedStep: integer('last_used_step'),
    /** The credential registered by a verified WebAuthn factor. */
    webauthnCredential: jsonb('webauthn_credential').$type<WebAuthnCredentialJson>(),
    lastChallengedAt: timestamp('last_challenged_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('mfa_factors_user_friendly_name_key').on(t.userId, t.friendlyName),
    index('mfa_factors_user_id_idx').on(t.userId, t.createdAt),
  ],
);

/** One challenge per verification attempt: single use, expiring, bound to the caller's IP. */
export const authMfaChallenges = authSchema.table(
  'mfa_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    factorId: uuid('factor_id')
      .notNull()
      .references(() => authMfaFactors.id, { onDelete: 'cascade' }),
    ip: text('ip').notNull(),
    /** Keyed hash of the code sent by SMS (phone factors). */
    otpHash: text('otp_hash'),
    /** WebAuthn factors: the challenge the authenticator must sign, and for which ceremony. */
    webauthnChallenge: text('webauthn_challenge'),
    webauthnType: text('webauthn_type', { enum: ['create', 'request'] }),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mfa_challenges_factor_id_idx').on(t.factorId)],
);

/**
 * Passkeys: discoverable WebAuthn credentials that sign a user in on their own (first factor,
 * GoTrue's `webauthn_credentials`), apart from WebAuthn MFA factors.
 */
export const authPasskeys = authSchema.table(
  'webauthn_credentials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    /** base64url credential id (as the authenticator reports it) and COSE public key. */
    credentialId: text('credential_id').notNull(),
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter: a later assertion must count higher (clones). */
    signCount: integer('sign_count').notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    aaguid: text('aaguid'),
    backupEligible: boolean('backup_eligible').notNull().default(false),
    backedUp: boolean('backed_up').notNull().default(false),
    friendlyName: text('friendly_name').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('webauthn_credentials_credential_id_key').on(t.credentialId),
    index('webauthn_credentials_user_id_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * Passkey ceremonies in progress: the challenge to be signed, for whom (registration) or for
 * anyone (sign-in); single use (deleted when answered), expiring.
 */
export const authPasskeyChallenges = authSchema.table(
  'webauthn_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => authUsers.id, { onDelete: 'cascade' }),
    challengeType: text('challenge_type', {
      enum: ['registration', 'authentication'],
    }).notNull(),
    challenge: text('challenge').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webauthn_challenges_expires_at_idx').on(t.expiresAt)],
);

export const authAuditLog = authSchema.table(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    action: text('action').notNull(),
    actorId: uuid('actor_id'),
    /** Non-secret facts: provider, scope, session id, ... */
    traits: jsonb('traits').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    ip: text('ip'),
    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
    index('audit_log_created_idx').on(t.createdAt),
  ],
);

/**
 * When mail was last sent to an address, known or not: the 60 s per-recipient frequency
 * limit applies the same way whether an account exists, so it reveals nothing.
 */
export const authSendLog = authSchema.table('send_log', {
  address: text('address').primaryKey(),
  lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull(),
});

/** Messages kept locally when no SMTP server is configured (read at /auth/v1/dev/mailbox). */
export const authDevMailbox = authSchema.table(
  'dev_mailbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('dev_mailbox_to_idx').on(t.to, t.createdAt)],
);
