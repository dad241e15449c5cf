import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authDevMailbox,
  authFlowStates,
  authMfaChallenges,
  authMfaFactors,
  authOneTimeTokens,
  authRefreshTokens,
  authSendLog,
  authSessions,
  authUsers,
} from '../db/schema/auth.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../test/database.ts';
import { pruneExpired } from './maintenance.ts';

describe.each(testDrivers)('pruning expired auth rows (%s)', (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(() => database?.close());

  it('deletes what can no longer be used and keeps what still can', async () => {
    const { db } = database;
    const now = new Date('2026-11-22T12:00:00Z');
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const day = 86_400_000;
    const [user] = await db.insert(authUsers).values({ email: 'prune@example.com' }).returning();
    const userId = user?.id as string;
    const [session] = await db.insert(authSessions).values({ userId, amr: [] }).returning();
    const sessionId = session?.id as string;
    const token = (type: 'recovery_token' | 'magiclink_token', expiresAt: Date) => ({
      userId,
      tokenType: type,
      tokenHash: randomUUID(),
      otpHash: randomUUID(),
      relatesTo: 'prune@example.com',
      expiresAt,
    });
    await db
      .insert(authOneTimeTokens)
      .values([
        token('recovery_token', ago(1000)),
        token('magiclink_token', new Date(now.getTime() + 1000)),
      ]);
    const flow = (createdAt: Date) => ({
      userId,
      authCodeHash: randomUUID(),
      codeChallenge: 'c'.repeat(43),
      codeChallengeMethod: 's256' as const,
      providerType: 'email',
      authenticationMethod: 'magiclink',
      createdAt,
    });
    await db.insert(authFlowStates).values([flow(ago(2 * day)), flow(ago(1000))]);
    await db.insert(authSendLog).values([
      { address: 'old@example.com', lastSentAt: ago(2 * day) },
      { address: 'new@example.com', lastSentAt: ago(1000) },
    ]);
    const refresh = (revoked: boolean, updatedAt: Date) => ({
      tokenHash: randomUUID(),
      sessionId,
      userId,
      revoked,
      updatedAt,
    });
    await db
      .insert(authRefreshTokens)
      .values([
        refresh(true, ago(8 * day)),
        refresh(true, ago(1000)),
        refresh(false, ago(30 * day)),
      ]);
    await db.insert(authDevMailbox).values([
      { to: 'a@example.com', subject: 'old', text: '', html: '', createdAt: ago(8 * day) },
      { to: 'a@example.com', subject: 'new', text: '', html: '', createdAt: ago(1000) },
    ]);

    const [factor] = await db
      .insert(authMfaFactors)
      .values({ userId, factorType: 'totp', friendlyName: 'prune' })
      .returning();
    await db.insert(authMfaChallenges).values([
      { factorId: factor?.id as string, ip: '127.0.0.1', expiresAt: ago(1000) },
      {
        factorId: factor?.id as string,
        ip: '127.0.0.2',
        expiresAt: new Date(now.getTime() + 1000),
      },
    ]);

    await pruneExpired(db, () => now);

    expect((await db.select().from(authOneTimeTokens)).map((row) => row.tokenType)).toEqual([
      'magiclink_token',
    ]);
    expect(await db.$count(authFlowStates)).toBe(1);
    expect((await db.select().from(authSendLog)).map((row) => row.address)).toEqual([
      'new@example.com',
    ]);
    const refreshLeft = await db.select().from(authRefreshTokens);
    expect(refreshLeft.map((row) => row.revoked).sort()).toEqual([false, true]);
    expect((await db.select().from(authDevMailbox)).map((row) => row.subject)).toEqual(['new']);
    expect((await db.select().from(authMfaChallenges)).map((row) => row.ip)).toEqual(['127.0.0.2']);
    expect(await db.$count(authMfaFactors)).toBe(1);
  });
});
