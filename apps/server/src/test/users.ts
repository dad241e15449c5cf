import { randomUUID } from 'node:crypto';
import { authSessions, authUsers } from '../db/schema/auth.ts';
import type { TestApp } from './app.ts';

export type TestUser = {
  userId: string;
  email: string;
  sessionId: string;
  accessToken: string;
  /** Ready-made request headers: `Authorization: Bearer …` (and a timezone when given). */
  headers: Record<string, string>;
};

/**
 * A confirmed user with a live session and an access token signed by the app's key, made
 * straight in the database: fast enough for authorisation matrices that need many users.
 * (The auth service's own tests sign up through HTTP; this is for the /api modules.)
 */
export async function createTestUser(
  t: Pick<TestApp, 'database' | 'keys' | 'config'>,
  options: { email?: string; timezone?: string } = {},
): Promise<TestUser> {
  const now = new Date();
  const email = (options.email ?? `user-${randomUUID().slice(0, 8)}@example.test`).toLowerCase();
  const [user] = await t.database.db
    .insert(authUsers)
    .values({
      email,
      emailConfirmedAt: now,
      appMetadata: { provider: 'email', providers: ['email'] },
    })
    .returning();
  if (!user) throw new Error('user not created');
  return signIn(t, { userId: user.id, email }, options);
}

/** A new session and access token for an existing user (another sign-in). */
export async function signIn(
  t: Pick<TestApp, 'database' | 'keys' | 'config'>,
  user: { userId: string; email: string },
  options: { timezone?: string } = {},
): Promise<TestUser> {
  const now = new Date();
  const [session] = await t.database.db
    .insert(authSessions)
    .values({ userId: user.userId, aal: 'aal1', amr: [], refreshedAt: now })
    .returning();
  if (!session) throw new Error('session not created');
  const iat = Math.floor(now.getTime() / 1000);
  const accessToken = await t.keys.sign({
    iss: t.config.auth.jwtIssuer,
    sub: user.userId,
    aud: 'authenticated',
    exp: iat + t.config.auth.jwtExp,
    iat,
    email: user.email,
    phone: '',
    role: 'authenticated',
    aal: 'aal1',
    amr: [{ method: 'password', timestamp: iat }],
    session_id: session.id,
    is_anonymous: false,
  });
  const headers: Record<string, string> = { authorization: `Bearer ${accessToken}` };
  if (options.timezone) headers['x-user-timezone'] = options.timezone;
  return { ...user, sessionId: session.id, accessToken, headers };
}
