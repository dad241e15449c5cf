import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../auth/passwords.ts';
import { authUsers } from '../../db/schema/auth.ts';
import { companyUsers, subQueueStaff, subQueues } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { DEMO_OWNER_EMAIL, DEMO_PASSWORD, DEMO_STAFF_EMAIL, seedDemoData } from './demo.seed.ts';

const clock = () => new Date('2026-11-23T09:00:00Z');

describe.each(testDrivers)('demo sign-ins (%s)', (driver) => {
  let database: TestDatabase | undefined;
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.app.close();
    await database?.close();
    t = undefined;
    database = undefined;
  });

  it('without accounts, the demo has no users', async () => {
    database = await createTestDatabase(driver);
    await seedDemoData(database.db, clock);
    expect(await database.db.$count(authUsers)).toBe(0);
    expect(await database.db.$count(companyUsers)).toBe(0);
  });

  it('the owner signs in with the documented password and administers the demo company', async () => {
    database = await createTestDatabase(driver);
    await seedDemoData(database.db, clock, {
      accounts: { passwordHash: () => hashPassword(DEMO_PASSWORD) },
    });
    t = await buildTestApp(database);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      payload: { email: DEMO_OWNER_EMAIL, password: DEMO_PASSWORD },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const headers = { authorization: `Bearer ${signIn.json().access_token}` };
    const data = await t.app.inject({ method: 'GET', url: '/api/user/user-data', headers });
    const [company] = data.json().data.companies;
    expect(company).toMatchObject({ slug: 'harbourview-health', role: 'owner', status: 'active' });
    const members = await t.app.inject({
      method: 'GET',
      url: `/api/company/${company.companyId}/users`,
      headers,
    });
    expect(
      members.json().data.map((m: { email: string; role: string }) => [m.email, m.role]),
    ).toEqual([
      [DEMO_OWNER_EMAIL, 'owner'],
      [DEMO_STAFF_EMAIL, 'staff'],
    ]);

    // The staff member is assigned to two sub-queues.
    const [staff] = await database.db
      .select()
      .from(authUsers)
      .where(eq(authUsers.email, DEMO_STAFF_EMAIL));
    const assigned = await database.db
      .select({ name: subQueues.name })
      .from(subQueueStaff)
      .innerJoin(subQueues, eq(subQueues.id, subQueueStaff.subQueueId))
      .where(eq(subQueueStaff.userId, staff?.id ?? ''));
    expect(assigned.map((row) => row.name).sort()).toEqual([
      'Dr Amelia Perera',
      'Phlebotomy room 1',
    ]);
  });
});

describe('SEED_DEMO_ACCOUNTS and DEV_MAILBOX', () => {
  it('default to on only for a local developer (loopback, no public address, not production); can be set either way', async () => {
    const { loadConfig } = await import('../../config.ts');
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) };
    const conveniences = (env: Record<string, string>) => {
      const config = loadConfig(env);
      return [config.seedDemoAccounts, config.devMailbox];
    };
    expect(conveniences({ NODE_ENV: 'development' })).toEqual([true, true]);
    expect(conveniences({ HOST: '127.0.0.1' })).toEqual([true, true]);
    expect(conveniences({ HOST: '::1', PUBLIC_URL: 'http://localhost:3000' })).toEqual([
      true,
      true,
    ]);
    // Reachable beyond this machine: a deployed server, whatever NODE_ENV says.
    expect(conveniences({ HOST: '0.0.0.0' })).toEqual([false, false]);
    expect(conveniences({ HOST: '192.168.1.20' })).toEqual([false, false]);
    expect(conveniences({ PUBLIC_URL: 'https://queue.clinic.example' })).toEqual([false, false]);
    expect(conveniences(production)).toEqual([false, false]);
    expect(conveniences({ HOST: '0.0.0.0', DEV_MAILBOX: 'true' })).toEqual([false, true]);
    expect(loadConfig(production).seedDemoAccounts).toBe(false);
    expect(loadConfig({ ...production, SEED_DEMO_ACCOUNTS: 'true' }).seedDemoAccounts).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test', SEED_DEMO_ACCOUNTS: 'false' }).seedDemoAccounts).toBe(
      false,
    );
  });
});
