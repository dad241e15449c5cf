import { plans } from '@upnext/contract/plans';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authDevMailbox } from '../../db/schema/auth.ts';
import { companies, companyUsers } from '../../db/schema/companies.ts';
import { meetings } from '../../db/schema/meetings.ts';
import { queues, serviceTypes } from '../../db/schema/queues.ts';
import { sessions } from '../../db/schema/sessions.ts';
import { queueTokens } from '../../db/schema/tokens.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createLiveSession } from '../../test/live-session.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';

/**
 * Company plans (the contract's plan table): each limit refuses at its edge with 409
 * `plan_limit_reached` and writes nothing, allows below it, and a company back on Free keeps
 * everything it has. The app's clock stands mid-month, so monthly counts never straddle a
 * month's end while a test runs.
 */
const NOW = new Date('2031-05-15T10:00:00Z');
const HOUR = 3_600_000;

describe.each(testDrivers)('plan limits (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database, {}, { clock: () => NOW });
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  const db = () => database.db;
  const inject = (
    user: TestUser,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      headers: user.headers,
      ...(payload ? { payload } : {}),
    });

  /** A company on `plan` with an owner, one queue and an open session around the app's now. */
  const company = (plan: 'free' | 'pro' | 'business') =>
    createLiveSession(t, {
      plan,
      startsInHours: (NOW.getTime() - Date.now()) / HOUR - 1,
      lengthHours: 8,
    });

  const limitRefusal = (
    response: { statusCode: number; json: () => unknown },
    details: { resource: string; limit: number; plan: string; used: number },
  ) => {
    expect(response.statusCode).toBe(409);
    expect((response.json() as { error: unknown }).error).toMatchObject({
      code: 'plan_limit_reached',
      details,
    });
  };

  const countQueues = async (companyId: string) =>
    (
      await db()
        .select({ n: count() })
        .from(queues)
        .where(and(eq(queues.companyId, companyId), eq(queues.status, 'active')))
    )[0]?.n;

  it('queues: refused at the limit with nothing written, allowed again once one is archived', async () => {
    const { owner, company: c, queue } = await company('free');
    const refused = await inject(owner, 'POST', '/company/queues', {
      companyId: c.id,
      name: 'Second',
    });
    limitRefusal(refused, { resource: 'queues', limit: 1, plan: 'free', used: 1 });
    expect(refused.json().error.message).toMatch(/Free plan includes 1 active queue/);
    expect(await countQueues(c.id)).toBe(1);

    expect((await inject(owner, 'DELETE', `/company/queues/${queue.id}`)).statusCode).toBe(200);
    const second = await inject(owner, 'POST', '/company/queues', {
      companyId: c.id,
      name: 'Second',
    });
    expect(second.statusCode, second.body).toBe(201);
    // Restoring the archived one would make two.
    const restore = await inject(owner, 'PATCH', `/company/queues/${queue.id}`, {
      status: 'active',
    });
    limitRefusal(restore, { resource: 'queues', limit: 1, plan: 'free', used: 1 });
    const [row] = await db().select().from(queues).where(eq(queues.id, queue.id));
    expect(row?.status).toBe('archived');
  });

  it('queues: of concurrent creations for the last place, exactly one wins', async () => {
    const { owner, company: c } = await company('pro');
    for (let i = 2; i < (plans.pro.queues ?? 0); i += 1) {
      const made = await inject(owner, 'POST', '/company/queues', {
        companyId: c.id,
        name: `Q${i}`,
      });
      expect(made.statusCode, made.body).toBe(201);
    }
    const racing = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        inject(owner, 'POST', '/company/queues', { companyId: c.id, name: `Race ${i}` }),
      ),
    );
    const codes = racing.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409, 409, 409, 409]);
    expect(await countQueues(c.id)).toBe(plans.pro.queues);
  });

  it('staff seats: invites and re-enabled members are refused when the seats are taken, before any mail', async () => {
    const { owner, company: c } = await company('free');
    const first = await inject(owner, 'POST', `/company/${c.id}/users`, {
      email: `first-${c.id.slice(0, 6)}@example.test`,
      role: 'staff',
    });
    expect(first.statusCode, first.body).toBe(201);

    const mailsBefore = (await db().select({ n: count() }).from(authDevMailbox))[0]?.n;
    const secondEmail = `second-${c.id.slice(0, 6)}@example.test`;
    const second = await inject(owner, 'POST', `/company/${c.id}/users`, {
      email: secondEmail,
      role: 'staff',
    });
    limitRefusal(second, { resource: 'staff', limit: 2, plan: 'free', used: 2 });
    const members = await db().select().from(companyUsers).where(eq(companyUsers.companyId, c.id));
    expect(members).toHaveLength(2);
    expect((await db().select({ n: count() }).from(authDevMailbox))[0]?.n).toBe(mailsBefore);

    // A disabled member holds no seat; enabling them again needs one.
    const former = await createTestUser(t);
    await db().insert(companyUsers).values({
      companyId: c.id,
      userId: former.userId,
      email: former.email,
      role: 'staff',
      status: 'disabled',
    });
    const enable = await inject(owner, 'PATCH', `/company/${c.id}/users/${former.userId}`, {
      status: 'active',
    });
    limitRefusal(enable, { resource: 'staff', limit: 2, plan: 'free', used: 2 });
    const [still] = await db()
      .select()
      .from(companyUsers)
      .where(and(eq(companyUsers.companyId, c.id), eq(companyUsers.userId, former.userId)));
    expect(still?.status).toBe('disabled');

    // Disabling someone frees their seat.
    const invited = members.find((m) => m.userId !== owner.userId);
    await db()
      .update(companyUsers)
      .set({ status: 'disabled' })
      .where(eq(companyUsers.id, invited?.id ?? ''));
    const again = await inject(owner, 'PATCH', `/company/${c.id}/users/${former.userId}`, {
      status: 'active',
    });
    expect(again.statusCode, again.body).toBe(200);
  });

  it("sessions a month: a series is counted whole, in the company's time zone; cancelled ones do not count", async () => {
    const { owner, company: c, queue } = await company('free');
    await db()
      .update(companies)
      .set({ timezone: 'Pacific/Auckland' })
      .where(eq(companies.id, c.id));
    // The fixture's session is one of May's; 58 more make 59 of the 60.
    const rows = Array.from({ length: 58 }, (_, i) => {
      const day = String(1 + Math.floor(i / 2)).padStart(2, '0');
      const [start, end] = i % 2 === 0 ? ['08:00', '09:00'] : ['10:00', '11:00'];
      return {
        queueId: queue.id,
        date: `2031-05-${day}`,
        startTime: start,
        endTime: end,
        timezone: 'Pacific/Auckland',
        startsAt: new Date(`2031-05-${day}T${start}:00+12:00`),
        endsAt: new Date(`2031-05-${day}T${end}:00+12:00`),
        capacity: 10,
      };
    });
    await db().insert(sessions).values(rows);
    const total = async () =>
      (await db().select({ n: count() }).from(sessions).where(eq(sessions.queueId, queue.id)))[0]
        ?.n;
    const before = await total();
    const schedule = (date: string, recurrence?: object) =>
      inject(owner, 'POST', '/queues/sessions/schedule', {
        queueId: queue.id,
        date,
        startTime: '13:00',
        endTime: '14:00',
        capacity: 20,
        ...(recurrence ? { recurrence } : {}),
      });

    // Thursdays 22 May, 29 May and 5 June: two more in May is one too many, so none is made.
    const series = await schedule('2031-05-22', {
      kind: 'weekly',
      weekdays: [4],
      until: '2031-06-05',
    });
    limitRefusal(series, { resource: 'sessions', limit: 60, plan: 'free', used: 59 });
    expect(await total()).toBe(before);

    expect((await schedule('2031-05-22')).statusCode).toBe(201);
    limitRefusal(await schedule('2031-05-23'), {
      resource: 'sessions',
      limit: 60,
      plan: 'free',
      used: 60,
    });
    // 1 June in Auckland is still 31 May in UTC: it counts in June.
    const june = await schedule('2031-06-01');
    expect(june.statusCode, june.body).toBe(201);

    const [may] = await db()
      .select()
      .from(sessions)
      .where(and(eq(sessions.queueId, queue.id), eq(sessions.date, '2031-05-03')));
    await db()
      .update(sessions)
      .set({ status: 'cancelled' })
      .where(eq(sessions.id, may?.id ?? ''));
    expect((await schedule('2031-05-23')).statusCode).toBe(201);
  });

  it('tokens a month: the visitor past the limit gets a polite refusal and no number is used', async () => {
    const { company: c, queue, session } = await company('free');
    // Another session of this month holds 299 issued tokens, and one released unpaid (not counted).
    const [other] = await db()
      .insert(sessions)
      .values({
        queueId: queue.id,
        date: '2031-05-02',
        startTime: '09:00',
        endTime: '17:00',
        timezone: 'UTC',
        startsAt: new Date('2031-05-02T09:00:00Z'),
        endsAt: new Date('2031-05-02T17:00:00Z'),
        capacity: 1000,
        lastIssuedNumber: 300,
        status: 'closed',
      })
      .returning();
    await db().execute(sql`
      insert into queue_tokens (session_id, number, display_number, kind, status, joined_at, updated_at, cancel_reason)
      select ${other?.id}, g, 'A-' || g, 'walk_in',
             case when g = 300 then 'cancelled' else 'served' end,
             ${'2031-05-02T10:00:00Z'}::timestamptz, ${'2031-05-02T10:00:00Z'}::timestamptz,
             case when g = 300 then 'payment_expired' end
        from generate_series(1, 300) g`);

    const first = await createTestUser(t);
    const taken = await inject(first, 'POST', '/queues/sessions/tokens', { sessionId: session.id });
    expect(taken.statusCode, taken.body).toBe(201);

    const second = await createTestUser(t);
    const refused = await inject(second, 'POST', '/queues/sessions/tokens', {
      sessionId: session.id,
    });
    limitRefusal(refused, { resource: 'tokens', limit: 300, plan: 'free', used: 300 });
    expect(refused.json().error.message).toMatch(/^Sorry, this queue cannot take new tokens/);
    const [after] = await db().select().from(sessions).where(eq(sessions.id, session.id));
    expect(after?.lastIssuedNumber).toBe(1);
    expect(
      await db().select().from(queueTokens).where(eq(queueTokens.userId, second.userId)),
    ).toEqual([]);

    // This month's count is what the Billing section shows (and only to the company's managers).
    const stranger = (await company('free')).owner;
    expect((await inject(stranger, 'GET', `/company/${c.id}/billing`)).statusCode).toBe(403);
  });

  it('tokens a month: of concurrent issues in different sessions for the last one, exactly one wins', async () => {
    const { queue, session } = await company('free');
    const sessionAt = (date: string, status: 'open' | 'closed', lastIssuedNumber: number) => ({
      queueId: queue.id,
      date,
      startTime: '09:00',
      endTime: '17:00',
      timezone: 'UTC',
      startsAt: new Date(`${date}T09:00:00Z`),
      endsAt: new Date(`${date}T17:00:00Z`),
      capacity: 1000,
      lastIssuedNumber,
      status,
    });
    // 299 of the month's 300 are used; three open sessions race for the last one.
    const [used, ...open] = await db()
      .insert(sessions)
      .values([
        sessionAt('2031-05-02', 'closed', 299),
        sessionAt('2031-05-15', 'open', 0),
        sessionAt('2031-05-15', 'open', 0),
      ])
      .returning();
    await db().execute(sql`
      insert into queue_tokens (session_id, number, display_number, kind, status, joined_at, updated_at)
      select ${used?.id}, g, 'A-' || g, 'walk_in', 'served',
             ${'2031-05-02T10:00:00Z'}::timestamptz, ${'2031-05-02T10:00:00Z'}::timestamptz
        from generate_series(1, 299) g`);
    const racing = [session.id, ...open.map((row) => row.id)];
    const visitors = await Promise.all(
      racing.flatMap(() => [createTestUser(t), createTestUser(t)]),
    );
    const answers = await Promise.all(
      visitors.map((visitor, i) =>
        inject(visitor, 'POST', '/queues/sessions/tokens', { sessionId: racing[i % 3] }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([
      201, 409, 409, 409, 409, 409,
    ]);
    const issued = await db()
      .select({ n: count() })
      .from(queueTokens)
      .where(inArray(queueTokens.sessionId, racing));
    expect(issued[0]?.n).toBe(1);
  });

  it('video: refused on a plan without it (meetings and video queues); a visit rung again counts once', async () => {
    const world = await company('free');
    const { owner, queue, session } = world;
    const online = await inject(owner, 'PATCH', `/company/queues/${queue.id}`, { online: true });
    limitRefusal(online, { resource: 'video', limit: 0, plan: 'free', used: 0 });
    expect(online.json().error.message).toMatch(/Video consultations are not included/);

    // A queue already set to video (e.g. from a lapsed plan) still refuses the call itself.
    await db().update(queues).set({ online: true }).where(eq(queues.id, queue.id));
    const visitor = await createTestUser(t);
    const token = (
      await inject(visitor, 'POST', '/queues/sessions/tokens', { sessionId: session.id })
    ).json().data.id as string;
    expect(
      (await inject(owner, 'POST', '/queues/sessions/next-token', { sessionId: session.id }))
        .statusCode,
    ).toBe(200);
    const call = () =>
      inject(owner, 'POST', '/meetings', { sessionId: session.id, tokenId: token });
    limitRefusal(await call(), { resource: 'video', limit: 0, plan: 'free', used: 0 });
    expect(await db().select().from(meetings).where(eq(meetings.tokenId, token))).toEqual([]);

    // On Pro, 500 visits already rung this month fill the month.
    await db().update(companies).set({ plan: 'pro' }).where(eq(companies.id, world.company.id));
    const other = await createTestUser(t);
    const stamp = NOW.toISOString();
    await db().execute(sql`
      with made as (
        insert into queue_tokens (session_id, number, display_number, kind, status, joined_at, updated_at, user_id)
        select ${session.id}, 1000 + g, 'V-' || g, 'walk_in', 'served', ${stamp}::timestamptz, ${stamp}::timestamptz, ${other.userId}
          from generate_series(1, 500) g
        returning id)
      insert into meetings (session_id, token_id, staff_user_id, visitor_user_id, state, created_at, ringing_until, ended_at)
      select ${session.id}, id, ${owner.userId}, ${other.userId}, 'ended', ${stamp}::timestamptz, ${stamp}::timestamptz, ${stamp}::timestamptz
        from made`);
    limitRefusal(await call(), { resource: 'video', limit: 500, plan: 'pro', used: 500 });

    // One of those was this visit's own earlier call instead: ringing it again adds nothing.
    const [one] = await db()
      .select()
      .from(meetings)
      .where(eq(meetings.visitorUserId, other.userId))
      .limit(1);
    await db()
      .update(meetings)
      .set({ tokenId: token, visitorUserId: visitor.userId })
      .where(eq(meetings.id, one?.id ?? ''));
    const rung = await call();
    expect(rung.statusCode, rung.body).toBe(201);
  });

  it('paid queues: a price on a queue or a service type needs online payments', async () => {
    const { owner, company: c, queue } = await company('free');
    const priced = await inject(owner, 'PATCH', `/company/queues/${queue.id}`, {
      priceMinor: 2500,
      currency: 'GBP',
    });
    limitRefusal(priced, { resource: 'paid_queues', limit: 0, plan: 'free', used: 0 });
    expect(
      (await db().select().from(queues).where(eq(queues.id, queue.id)))[0]?.priceMinor,
    ).toBeNull();

    const type = await inject(owner, 'POST', `/queues/${queue.id}/service-types`, {
      name: 'Paid check-up',
      durationMinutes: 15,
      priceMinor: 1500,
    });
    limitRefusal(type, { resource: 'paid_queues', limit: 0, plan: 'free', used: 0 });
    expect(
      await db()
        .select()
        .from(serviceTypes)
        .where(and(eq(serviceTypes.queueId, queue.id), eq(serviceTypes.name, 'Paid check-up'))),
    ).toEqual([]);
    // Free service types are fine.
    const free = await inject(owner, 'POST', `/queues/${queue.id}/service-types`, {
      name: 'Check-up',
      durationMinutes: 15,
    });
    expect(free.statusCode, free.body).toBe(201);

    await db().update(companies).set({ plan: 'pro' }).where(eq(companies.id, c.id));
    const paid = await inject(owner, 'PATCH', `/company/queues/${queue.id}`, {
      priceMinor: 2500,
      currency: 'GBP',
    });
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it('a company back on Free keeps everything; only adding more is refused; billing shows it', async () => {
    const { owner, company: c, queue } = await company('pro');
    const make = async (body: object) => {
      const made = await inject(owner, 'POST', '/company/queues', { companyId: c.id, ...body });
      expect(made.statusCode, made.body).toBe(201);
      return made.json().data.id as string;
    };
    const paidQueue = await make({ name: 'Paid', priceMinor: 2000, currency: 'EUR' });
    const videoQueue = await make({ name: 'Video', online: true });
    for (const email of ['a', 'b']) {
      const invited = await inject(owner, 'POST', `/company/${c.id}/users`, {
        email: `${email}-${c.id.slice(0, 6)}@example.test`,
        role: 'staff',
      });
      expect(invited.statusCode, invited.body).toBe(201);
    }

    // The plan lapses (the payments core does this on the provider's word).
    await db().update(companies).set({ plan: 'free' }).where(eq(companies.id, c.id));

    expect(await countQueues(c.id)).toBe(3);
    const listed = await inject(owner, 'GET', `/company/queues?companyId=${c.id}`);
    expect(
      listed
        .json()
        .data.map((q: { name: string }) => q.name)
        .sort(),
    ).toEqual(['General practice', 'Paid', 'Video']);
    const paidRow = (await db().select().from(queues).where(eq(queues.id, paidQueue)))[0];
    expect(paidRow?.priceMinor).toBe(2000);
    expect((await db().select().from(queues).where(eq(queues.id, videoQueue)))[0]?.online).toBe(
      true,
    );
    // Existing things still work and can be edited...
    const renamed = await inject(owner, 'PATCH', `/company/queues/${paidQueue}`, {
      name: 'Paid visits',
      priceMinor: 2200,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const scheduled = await inject(owner, 'POST', '/queues/sessions/schedule', {
      queueId: videoQueue,
      date: '2031-05-20',
      startTime: '09:00',
      endTime: '12:00',
      capacity: 10,
    });
    expect(scheduled.statusCode, scheduled.body).toBe(201);
    // ...but nothing more is added.
    limitRefusal(
      await inject(owner, 'POST', '/company/queues', { companyId: c.id, name: 'Fourth' }),
      {
        resource: 'queues',
        limit: 1,
        plan: 'free',
        used: 3,
      },
    );
    limitRefusal(await inject(owner, 'PATCH', `/company/queues/${queue.id}`, { online: true }), {
      resource: 'video',
      limit: 0,
      plan: 'free',
      used: 0,
    });

    const billing = await inject(owner, 'GET', `/company/${c.id}/billing`);
    expect(billing.statusCode, billing.body).toBe(200);
    const data = billing.json().data;
    expect(data).toMatchObject({
      companyId: c.id,
      plan: 'free',
      planStatus: 'active',
      planRenewsAt: null,
      planCancelsAtPeriodEnd: false,
      monthlyPriceMinor: 0,
      currency: 'EUR',
      month: '2031-05',
      timezone: 'UTC',
    });
    const usage = Object.fromEntries(
      data.usage.map((u: { resource: string; limit: number | null; used: number }) => [
        u.resource,
        [u.limit, u.used],
      ]),
    );
    expect(usage).toEqual({
      queues: [1, 3],
      staff: [2, 3],
      sessions: [60, 2],
      tokens: [300, 0],
      video: [0, 0],
      paid_queues: [0, 1],
    });
  });
});
