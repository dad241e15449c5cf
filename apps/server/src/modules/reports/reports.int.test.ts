import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, companyUsers } from '../../db/schema/companies.ts';
import { meetings } from '../../db/schema/meetings.ts';
import { queues, serviceTypes, subQueues } from '../../db/schema/queues.ts';
import { sessionServices, sessions } from '../../db/schema/sessions.ts';
import { queueTokens } from '../../db/schema/tokens.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';

/**
 * Reports (issue 16) over two seeded days of a company in New York (UTC-4 in June): every
 * figure is checked against values worked out here from the seed, not by the report's own
 * code. The seed straddles the local midnight: a visit at 23:30 on the 10th is 03:30 UTC on
 * the 11th and belongs to the 10th; one at 23:30 on the 9th is on the 10th in UTC and belongs
 * to the 9th.
 */
const TZ = 'America/New_York';
const DAY = '2031-06-10'; // a Tuesday
const EVE = '2031-06-09'; // the Monday before
/** A wall-clock time in New York in June (EDT, UTC-4), as an instant. */
const at = (date: string, time: string) => new Date(`${date}T${time}:00-04:00`);
const plusMinutes = (date: string, time: string, minutes: number) =>
  new Date(at(date, time).getTime() + minutes * 60_000);

type Seeded = {
  key: string;
  session: 'desk1' | 'desk2' | 'video' | 'eve';
  kind: 'walk_in' | 'booking';
  status: 'served' | 'no_show' | 'cancelled' | 'waiting';
  joined: [string, string];
  /** A booking's slot start (local time on its session's day). */
  slot?: string;
  /** Minutes from joining to being called. */
  waitMinutes?: number;
  serviceSeconds?: number;
  /** The local day and hour the visit counts on (worked out by hand from the rule). */
  day: string;
  hour: number;
  /** Video calls about the visit: answered or not, in order. */
  calls?: boolean[];
};

const visits: Seeded[] = [
  // Desk, counter 1, 09:00-17:00 on the 10th.
  {
    key: 't1',
    session: 'desk1',
    kind: 'walk_in',
    status: 'served',
    joined: [DAY, '09:00'],
    waitMinutes: 10,
    serviceSeconds: 300,
    day: DAY,
    hour: 9,
  },
  {
    key: 't2',
    session: 'desk1',
    kind: 'walk_in',
    status: 'served',
    joined: [DAY, '09:05'],
    waitMinutes: 20,
    serviceSeconds: 420,
    day: DAY,
    hour: 9,
  },
  {
    key: 't3',
    session: 'desk1',
    kind: 'walk_in',
    status: 'no_show',
    joined: [DAY, '09:30'],
    waitMinutes: 20,
    day: DAY,
    hour: 9,
  },
  {
    key: 't4',
    session: 'desk1',
    kind: 'walk_in',
    status: 'cancelled',
    joined: [DAY, '10:00'],
    day: DAY,
    hour: 10,
  },
  // Booked at 08:00 for the 10:00 slot: it counts at 10:00, waits from its booking.
  {
    key: 't5',
    session: 'desk1',
    kind: 'booking',
    status: 'served',
    joined: [DAY, '08:00'],
    slot: '10:00',
    waitMinutes: 122,
    serviceSeconds: 600,
    day: DAY,
    hour: 10,
  },
  // Taken at 08:30, before the session opened: it counts from the session's start.
  {
    key: 't6',
    session: 'desk1',
    kind: 'walk_in',
    status: 'served',
    joined: [DAY, '08:30'],
    waitMinutes: 30,
    serviceSeconds: 240,
    day: DAY,
    hour: 9,
  },
  // Served without a recorded service time: counted, but not in the times.
  {
    key: 't7',
    session: 'desk1',
    kind: 'walk_in',
    status: 'served',
    joined: [DAY, '11:00'],
    waitMinutes: 30,
    day: DAY,
    hour: 11,
  },
  // Taken the evening before: its day is the session's.
  {
    key: 't14',
    session: 'desk1',
    kind: 'walk_in',
    status: 'cancelled',
    joined: [EVE, '20:00'],
    day: DAY,
    hour: 9,
  },
  // Desk, counter 2, 18:00-23:59 on the 10th: 23:30 local is 03:30 UTC on the 11th.
  {
    key: 't8',
    session: 'desk2',
    kind: 'walk_in',
    status: 'served',
    joined: [DAY, '23:30'],
    waitMinutes: 10,
    serviceSeconds: 120,
    day: DAY,
    hour: 23,
  },
  {
    key: 't9',
    session: 'desk2',
    kind: 'walk_in',
    status: 'waiting',
    joined: [DAY, '23:45'],
    day: DAY,
    hour: 23,
  },
  // Video queue, 09:00-12:00 on the 10th.
  {
    key: 't10',
    session: 'video',
    kind: 'walk_in',
    status: 'served',
    joined: [DAY, '09:00'],
    waitMinutes: 15,
    serviceSeconds: 900,
    day: DAY,
    hour: 9,
    calls: [true],
  },
  {
    key: 't11',
    session: 'video',
    kind: 'walk_in',
    status: 'served',
    joined: [DAY, '09:20'],
    waitMinutes: 20,
    serviceSeconds: 180,
    day: DAY,
    hour: 9,
    calls: [false, false],
  },
  {
    key: 't12',
    session: 'video',
    kind: 'booking',
    status: 'served',
    joined: [DAY, '10:00'],
    slot: '11:00',
    waitMinutes: 65,
    serviceSeconds: 360,
    day: DAY,
    hour: 11,
    calls: [false, true],
  },
  // Desk, counter 1, 09:00-17:00 on the 9th.
  {
    key: 't13',
    session: 'eve',
    kind: 'walk_in',
    status: 'served',
    joined: [EVE, '12:00'],
    waitMinutes: 10,
    serviceSeconds: 200,
    day: EVE,
    hour: 12,
  },
  // 23:30 on the 9th locally, already the 10th in UTC: it belongs to the 9th.
  {
    key: 't15',
    session: 'eve',
    kind: 'walk_in',
    status: 'no_show',
    joined: [EVE, '23:30'],
    waitMinutes: 5,
    day: EVE,
    hour: 23,
  },
];

/** PostgreSQL's `percentile_cont`: linear interpolation at p·(n−1) of the sorted values. */
function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const position = p * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const low_ = sorted[low] as number;
  return low_ + ((sorted[high] as number) - low_) * (position - low);
}
const tenth = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);
function distribution(values: number[]) {
  const average = values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
  return {
    average: tenth(average),
    median: tenth(percentile(values, 0.5)),
    p90: tenth(percentile(values, 0.9)),
  };
}

/** How long a visit waited: from joining, or a booking from its slot's start, to its call. */
function waitedSeconds(v: Seeded) {
  const called = plusMinutes(v.joined[0], v.joined[1], v.waitMinutes as number).getTime();
  const joined = at(v.joined[0], v.joined[1]).getTime();
  const from = v.slot ? Math.max(joined, at(v.day, v.slot).getTime()) : joined;
  return Math.max(0, (called - from) / 1000);
}

/** The figures of some seeded visits, worked out from the seed. */
function expectedFigures(list: Seeded[]) {
  const timed = list.filter((v) => v.status === 'served' && v.serviceSeconds !== undefined);
  return {
    visits: list.length,
    served: list.filter((v) => v.status === 'served').length,
    noShows: list.filter((v) => v.status === 'no_show').length,
    cancelled: list.filter((v) => v.status === 'cancelled').length,
    walkIns: list.filter((v) => v.kind === 'walk_in').length,
    bookings: list.filter((v) => v.kind === 'booking').length,
    waitSeconds: distribution(timed.map(waitedSeconds)),
    serviceSeconds: distribution(timed.map((v) => v.serviceSeconds as number)),
    consultationsHeld: list.filter((v) => v.calls?.some(Boolean)).length,
    consultationsUnanswered: list.filter((v) => v.calls && !v.calls.some(Boolean)).length,
  };
}

/** ISO weekday (1 Monday ... 7 Sunday) of a calendar date. */
const isoWeekday = (date: string) => ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;

function expectedHours(list: Seeded[]) {
  const cells = new Map<string, { weekday: number; hour: number; visits: number }>();
  for (const v of list.filter((x) => x.status !== 'cancelled')) {
    const weekday = isoWeekday(v.day);
    const key = `${weekday}-${v.hour}`;
    const cell = cells.get(key) ?? { weekday, hour: v.hour, visits: 0 };
    cell.visits += 1;
    cells.set(key, cell);
  }
  return [...cells.values()].sort((a, b) => a.weekday - b.weekday || a.hour - b.hour);
}

describe.each(testDrivers)('reports (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let owner: TestUser;
  let staff: TestUser;
  let outsider: TestUser;
  let ids: {
    company: string;
    desk: string;
    video: string;
    counter1: string;
    counter2: string;
    otherQueue: string;
    otherSubQueue: string;
  };

  const report = (user: TestUser | null, query: string, companyId = ids.company) =>
    t.app.inject({
      method: 'GET',
      url: `/api/company/${companyId}/reports?${query}`,
      headers: user?.headers ?? {},
    });
  const dataOf = async (query: string) => {
    const response = await report(owner, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database);
    const db = database.db;
    [owner, staff, outsider] = [
      await createTestUser(t),
      await createTestUser(t),
      await createTestUser(t),
    ];
    const visitor = await createTestUser(t);
    const suffix = randomBytes(4).toString('hex');
    const [company, other] = await db
      .insert(companies)
      .values([
        { name: 'Harbour Clinic', slug: `harbour-${suffix}`, timezone: TZ, plan: 'business' },
        { name: 'Other Clinic', slug: `other-${suffix}`, timezone: TZ },
      ])
      .returning();
    if (!company || !other) throw new Error('companies not created');
    await db.insert(companyUsers).values([
      {
        companyId: company.id,
        userId: owner.userId,
        email: owner.email,
        role: 'owner',
        status: 'active',
      },
      {
        companyId: company.id,
        userId: staff.userId,
        email: staff.email,
        role: 'staff',
        status: 'active',
      },
      {
        companyId: other.id,
        userId: outsider.userId,
        email: outsider.email,
        role: 'owner',
        status: 'active',
      },
    ]);
    const queue = (companyId: string, name: string, online: boolean) => ({
      companyId,
      name,
      online,
      joinCode: randomBytes(4).toString('hex').toUpperCase(),
    });
    const [desk, video, otherQueue] = await db
      .insert(queues)
      .values([
        queue(company.id, 'Desk', false),
        queue(company.id, 'Video', true),
        queue(other.id, 'Elsewhere', false),
      ])
      .returning();
    if (!desk || !video || !otherQueue) throw new Error('queues not created');
    const [counter1, counter2, otherSubQueue] = await db
      .insert(subQueues)
      .values([
        { queueId: desk.id, name: 'Counter 1' },
        { queueId: desk.id, name: 'Counter 2' },
        { queueId: otherQueue.id, name: 'Counter 9' },
      ])
      .returning();
    if (!counter1 || !counter2 || !otherSubQueue) throw new Error('sub-queues not created');
    ids = {
      company: company.id,
      desk: desk.id,
      video: video.id,
      counter1: counter1.id,
      counter2: counter2.id,
      otherQueue: otherQueue.id,
      otherSubQueue: otherSubQueue.id,
    };
    const session = (
      queueId: string,
      subQueueId: string | null,
      date: string,
      start: string,
      end: string,
    ) => ({
      queueId,
      subQueueId,
      date,
      startTime: start,
      endTime: end,
      timezone: TZ,
      startsAt: at(date, start),
      endsAt: at(date, end),
      capacity: 100,
      status: 'closed' as const,
    });
    const [desk1, desk2, videoSession, eve, otherSession] = await db
      .insert(sessions)
      .values([
        session(desk.id, counter1.id, DAY, '09:00', '17:00'),
        session(desk.id, counter2.id, DAY, '18:00', '23:59'),
        session(video.id, null, DAY, '09:00', '12:00'),
        session(desk.id, counter1.id, EVE, '09:00', '17:00'),
        session(otherQueue.id, otherSubQueue.id, DAY, '09:00', '17:00'),
      ])
      .returning();
    if (!desk1 || !desk2 || !videoSession || !eve || !otherSession) {
      throw new Error('sessions not created');
    }
    const sessionIds = { desk1: desk1.id, desk2: desk2.id, video: videoSession.id, eve: eve.id };
    const types = await db
      .insert(serviceTypes)
      .values([
        { queueId: desk.id, name: 'Check-up', durationMinutes: 10 },
        { queueId: video.id, name: 'Call', durationMinutes: 10 },
      ])
      .returning();
    const services = await db
      .insert(sessionServices)
      .values([
        {
          sessionId: desk1.id,
          serviceTypeId: types[0]?.id as string,
          slotMinutes: 60,
          capacityPerSlot: 5,
        },
        {
          sessionId: videoSession.id,
          serviceTypeId: types[1]?.id as string,
          slotMinutes: 60,
          capacityPerSlot: 5,
        },
      ])
      .returning();
    const serviceOf = { desk1: services[0]?.id, video: services[1]?.id } as Record<string, string>;
    const dayOf = { desk1: DAY, desk2: DAY, video: DAY, eve: EVE };

    const numbers = new Map<string, number>();
    for (const v of visits) {
      const number = (numbers.get(v.session) ?? 0) + 1;
      numbers.set(v.session, number);
      const calledAt =
        v.waitMinutes === undefined ? null : plusMinutes(v.joined[0], v.joined[1], v.waitMinutes);
      const [token] = await db
        .insert(queueTokens)
        .values({
          sessionId: sessionIds[v.session],
          number,
          displayNumber: `A-${number}`,
          kind: v.kind,
          ...(v.slot
            ? {
                sessionServiceId: serviceOf[v.session],
                slotNo: 1,
                slotStartsAt: at(dayOf[v.session], v.slot),
              }
            : {}),
          userId: visitor.userId,
          status: v.status,
          joinedAt: at(v.joined[0], v.joined[1]),
          calledAt,
          completedAt: v.status === 'served' ? calledAt : null,
          cancelledAt: v.status === 'cancelled' ? at(v.joined[0], v.joined[1]) : null,
          serviceSeconds: v.serviceSeconds ?? null,
          updatedAt: new Date(),
        })
        .returning();
      for (const answered of v.calls ?? []) {
        const rungAt = calledAt as Date;
        await db.insert(meetings).values({
          sessionId: sessionIds[v.session],
          tokenId: token?.id as string,
          staffUserId: staff.userId,
          visitorUserId: visitor.userId,
          state: answered ? 'ended' : 'missed',
          createdAt: rungAt,
          ringingUntil: new Date(rungAt.getTime() + 45_000),
          answeredAt: answered ? rungAt : null,
          endedAt: new Date(rungAt.getTime() + 60_000),
        });
      }
    }
    // Another company's visit on the same day, which no report of this company counts.
    await db.insert(queueTokens).values({
      sessionId: otherSession.id,
      number: 1,
      displayNumber: 'A-1',
      kind: 'walk_in',
      status: 'served',
      joinedAt: at(DAY, '10:00'),
      calledAt: at(DAY, '10:05'),
      serviceSeconds: 60,
      updatedAt: new Date(),
    });
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  const onDay = (day: string) => visits.filter((v) => v.day === day);

  it('counts a day of the whole company: every figure, in its local day', async () => {
    const data = await dataOf(`from=${EVE}&to=${DAY}&granularity=day`);
    expect(data).toMatchObject({ timezone: TZ, from: EVE, to: DAY, queueId: null, video: true });
    expect(data.totals).toEqual(expectedFigures(visits));
    expect(data.periods).toEqual([
      { start: EVE, ...expectedFigures(onDay(EVE)) },
      { start: DAY, ...expectedFigures(onDay(DAY)) },
    ]);
    expect(data.busiestHours).toEqual(expectedHours(visits));
    // Spot checks of the hand-worked rules, beside the computed expectation.
    expect(data.periods[1]).toMatchObject({ visits: 13, served: 9, noShows: 1, cancelled: 2 });
    expect(data.periods[1]).toMatchObject({ consultationsHeld: 2, consultationsUnanswered: 1 });
    expect(data.periods[0]).toMatchObject({ visits: 2, served: 1, noShows: 1 });
  });

  it('narrows to a queue and to a sub-queue; lists the scopes', async () => {
    const desk = await dataOf(`from=${DAY}&to=${DAY}&queueId=${ids.desk}`);
    const deskVisits = onDay(DAY).filter((v) => ['desk1', 'desk2'].includes(v.session));
    expect(desk.totals).toEqual(expectedFigures(deskVisits));
    expect(desk.video).toBe(false);
    const counter2 = await dataOf(`from=${DAY}&to=${DAY}&subQueueId=${ids.counter2}`);
    expect(counter2).toMatchObject({ queueId: ids.desk, subQueueId: ids.counter2 });
    expect(counter2.totals).toEqual(expectedFigures(visits.filter((v) => v.session === 'desk2')));
    const video = await dataOf(`from=${DAY}&to=${DAY}&queueId=${ids.video}`);
    expect(video.video).toBe(true);
    expect(video.totals).toMatchObject({ consultationsHeld: 2, consultationsUnanswered: 1 });
    expect(desk.queues).toEqual([
      {
        id: ids.desk,
        name: 'Desk',
        online: false,
        archived: false,
        subQueues: [
          { id: ids.counter1, name: 'Counter 1' },
          { id: ids.counter2, name: 'Counter 2' },
        ],
      },
      { id: ids.video, name: 'Video', online: true, archived: false, subQueues: [] },
    ]);
  });

  it('groups by week from Monday and by month, empty periods included', async () => {
    const week = await dataOf(`from=${DAY}&to=2031-06-16&granularity=week`);
    expect(week.periods).toEqual([
      { start: '2031-06-09', ...expectedFigures(onDay(DAY)) },
      { start: '2031-06-16', ...expectedFigures([]) },
    ]);
    const month = await dataOf(`from=2031-05-20&to=2031-06-30&granularity=month`);
    expect(month.periods.map((p: { start: string }) => p.start)).toEqual([
      '2031-05-01',
      '2031-06-01',
    ]);
    expect(month.periods[0]).toEqual({ start: '2031-05-01', ...expectedFigures([]) });
    expect(month.totals).toEqual(expectedFigures(visits));
  });

  it('a period without visits is all zeros and nulls', async () => {
    const data = await dataOf('from=2030-01-01&to=2030-01-03');
    expect(data.totals).toEqual(expectedFigures([]));
    expect(data.periods).toHaveLength(3);
    expect(data.busiestHours).toEqual([]);
  });

  it('staff read it; other companies, visitors and anonymous callers do not', async () => {
    expect((await report(staff, `from=${DAY}&to=${DAY}`)).statusCode).toBe(200);
    const foreign = await report(outsider, `from=${DAY}&to=${DAY}`);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error.code).toBe('forbidden');
    expect(foreign.body).not.toContain('Desk');
    expect((await report(null, `from=${DAY}&to=${DAY}`)).json().error.code).toBe('unauthorized');
  });

  it('refuses a bad period or a scope of another company with stable codes', async () => {
    const reversed = await report(owner, `from=${DAY}&to=${EVE}`);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().error).toMatchObject({
      code: 'invalid_period',
      details: { problem: 'reversed' },
    });
    const tooLong = await report(owner, 'from=2030-01-01&to=2031-01-02');
    expect(tooLong.json().error).toMatchObject({
      code: 'invalid_period',
      details: { problem: 'too_long' },
    });
    // 366 days (a leap year's worth) is the most one report covers.
    expect((await report(owner, 'from=2030-01-01&to=2031-01-01')).statusCode).toBe(200);
    const malformed = await report(owner, `from=10/06/2031&to=${DAY}&granularity=year`);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('validation_failed');
    for (const query of [
      `queueId=${ids.otherQueue}`,
      `subQueueId=${ids.otherSubQueue}`,
      `queueId=${ids.video}&subQueueId=${ids.counter1}`,
    ]) {
      const response = await report(owner, `from=${DAY}&to=${DAY}&${query}`);
      expect(response.statusCode, query).toBe(404);
      expect(response.json().error.code).toBe('not_found');
      expect(response.body).not.toContain('Elsewhere');
    }
  });
});
