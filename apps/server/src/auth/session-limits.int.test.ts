import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { authSessions } from '../db/schema/auth.ts';
import { testDrivers } from '../test/database.ts';
import { type AuthServer, startAuthServer, uniqueEmail } from './testing.ts';

describe.each(testDrivers)('session lifetime limits (%s)', (driver) => {
  const servers: AuthServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  async function signedIn(env: Record<string, string>) {
    const server = await startAuthServer(driver, { MAILER_AUTOCONFIRM: 'true', ...env });
    servers.push(server);
    const client = server.client();
    const { data } = await client.signUp({
      email: uniqueEmail('limits'),
      password: 'correct horse battery',
    });
    const claims = JSON.parse(
      Buffer.from((data.session?.access_token ?? '').split('.')[1] ?? '', 'base64url').toString(),
    ) as { session_id: string };
    return { server, client, sessionId: claims.session_id };
  }

  it('ends a session at its timebox: refresh answers session_expired', async () => {
    const { server, client, sessionId } = await signedIn({ SESSIONS_TIMEBOX: '3600' });
    const [row] = await server.db.select().from(authSessions).where(eq(authSessions.id, sessionId));
    expect(row?.notAfter?.getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    expect((await client.refreshSession()).error).toBeNull();
    await server.db
      .update(authSessions)
      .set({ notAfter: new Date(Date.now() - 1000) })
      .where(eq(authSessions.id, sessionId));
    const expired = await client.refreshSession();
    expect([expired.error?.status, expired.error?.code]).toEqual([400, 'session_expired']);
  });

  it('ends a session left idle longer than the inactivity timeout', async () => {
    const { server, client, sessionId } = await signedIn({ SESSIONS_INACTIVITY_TIMEOUT: '600' });
    expect((await client.refreshSession()).error).toBeNull();
    await server.db
      .update(authSessions)
      .set({ refreshedAt: new Date(Date.now() - 601_000) })
      .where(eq(authSessions.id, sessionId));
    const expired = await client.refreshSession();
    expect(expired.error?.code).toBe('session_expired');
  });

  it('sets no limit by default', async () => {
    const { server, client, sessionId } = await signedIn({});
    const [row] = await server.db.select().from(authSessions).where(eq(authSessions.id, sessionId));
    expect(row?.notAfter).toBeNull();
    await server.db
      .update(authSessions)
      .set({ refreshedAt: new Date(Date.now() - 30 * 86_400_000) })
      .where(eq(authSessions.id, sessionId));
    expect((await client.refreshSession()).error).toBeNull();
  });
});
