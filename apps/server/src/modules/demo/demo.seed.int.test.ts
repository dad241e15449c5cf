import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { companies, queues, sessionServices, sessions, slots } from '../../db/schema/index.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { DEMO_COMPANY_SLUG, seedDemoData } from './demo.seed.ts';

const fixedClock = (iso: string) => () => new Date(iso);

describe.each(testDrivers)('demo data on %s', (driver) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('seeds a company with queues and sessions from today on, in its own time zone', async () => {
    database = await createTestDatabase(driver);
    // 22:30 UTC on Saturday is still Saturday in London; the demo skips Sundays.
    expect(await seedDemoData(database.db, fixedClock('2026-11-21T22:30:00Z'))).toBe(true);
    const { db } = database;

    const [company] = await db.select().from(companies);
    expect(company).toMatchObject({ slug: DEMO_COMPANY_SLUG, timezone: 'Europe/London' });
    const queueRows = await db.select().from(queues).orderBy(asc(queues.name));
    expect(queueRows.map((queue) => [queue.name, queue.mode, queue.tokenPrefix])).toEqual([
      ['Blood tests', 'hybrid', 'B'],
      ['General practice', 'walk_in', 'A'],
      ['Private consultation', 'walk_in', 'P'],
      ['Video consultations', 'slots', 'V'],
    ]);

    const dates = await db
      .selectDistinct({ date: sessions.date })
      .from(sessions)
      .orderBy(asc(sessions.date));
    // Saturday 21st, then Monday 23rd to Friday 27th: six working days of the seven.
    expect(dates.map((row) => row.date)).toEqual([
      '2026-11-21',
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
    ]);
    const today = await db.select().from(sessions).where(eq(sessions.date, '2026-11-21'));
    expect(today.every((session) => session.status === 'open')).toBe(true);
    const later = await db.select().from(sessions).where(eq(sessions.date, '2026-11-23'));
    expect(later.every((session) => session.status === 'scheduled')).toBe(true);
  });

  it('places session windows by the zone rules, across a daylight-saving change', async () => {
    database = await createTestDatabase(driver);
    // London moves to summer time on Sunday 29 March 2026.
    await seedDemoData(database.db, fixedClock('2026-03-27T12:00:00Z'));
    const morning = await database.db
      .select({ date: sessions.date, startsAt: sessions.startsAt })
      .from(sessions)
      .where(eq(sessions.startTime, '08:00:00'))
      .orderBy(asc(sessions.date));
    expect(morning.slice(0, 3).map((row) => [row.date, row.startsAt.toISOString()])).toEqual([
      ['2026-03-27', '2026-03-27T08:00:00.000Z'],
      ['2026-03-28', '2026-03-28T08:00:00.000Z'],
      ['2026-03-30', '2026-03-30T07:00:00.000Z'],
    ]);
  });

  it('cuts each service window into whole slots', async () => {
    database = await createTestDatabase(driver);
    await seedDemoData(database.db, fixedClock('2026-11-23T09:00:00Z'));
    const perService = await database.db
      .select({ slotMinutes: sessionServices.slotMinutes, slots: count(slots.slotNo) })
      .from(sessionServices)
      .innerJoin(slots, eq(slots.sessionServiceId, sessionServices.id))
      .groupBy(sessionServices.id, sessionServices.slotMinutes);
    // 08:00-11:00 in 10-minute slots, and 14:00-17:00 in 20-minute slots.
    expect(new Set(perService.map((row) => `${row.slotMinutes}:${row.slots}`))).toEqual(
      new Set(['10:18', '20:9']),
    );
  });

  it('seeds once, even when asked twice at the same moment', async () => {
    database = await createTestDatabase(driver);
    const clock = fixedClock('2026-11-23T09:00:00Z');
    const results = await Promise.all([
      seedDemoData(database.db, clock),
      seedDemoData(database.db, clock),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await database.db.$count(companies)).toBe(1);
    expect(await seedDemoData(database.db, clock)).toBe(false);
  });
});

describe('embedded database on disk', () => {
  it('keeps what was written across a restart, and migrating again changes nothing', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'upnext-pglite-'));
    try {
      const first = await openDatabase({ driver: 'pglite', dataDir });
      await first.migrate();
      await seedDemoData(first.db, fixedClock('2026-11-23T09:00:00Z'));
      const sessionCount = await first.db.$count(sessions);
      await first.close();

      const second = await openDatabase({ driver: 'pglite', dataDir });
      await second.migrate();
      expect(await second.db.$count(sessions)).toBe(sessionCount);
      expect(await seedDemoData(second.db, fixedClock('2026-11-24T09:00:00Z'))).toBe(false);
      await second.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
