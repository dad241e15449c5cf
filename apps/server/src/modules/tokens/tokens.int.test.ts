import { sessionEvent, userEvent } from '@upnext/contract/realtime';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  joinRequests,
  notifications,
  sessions,
  slots,
  userProfiles,
} from '../../db/schema/index.ts';
import { queueTokens } from '../../db/schema/tokens.ts';
import type { EventPublisher } from '../../lib/events.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createLiveSession } from '../../test/live-session.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';

type Published = { destination: string; body: Record<string, unknown> };

describe.each(testDrivers)('tokens and bookings (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  const published: Published[] = [];
  const publisher: EventPublisher = {
    publish: (destination, body) => {
      published.push({ destination, body: body as Record<string, unknown> });
    },
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database, {}, { publisher });
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  const post = (url: string, user: TestUser | undefined, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api${url}`,
      payload: payload as object,
      ...(user ? { headers: user.headers } : {}),
    });
  const take = (user: TestUser | undefined, payload: unknown) =>
    post('/queues/sessions/tokens', user, payload);
  const book = (user: TestUser | undefined, payload: unknown) =>
    post('/queues/sessions/slots/tokens', user, payload);
  const next = (user: TestUser, sessionId: string) =>
    post('/queues/sessions/next-token', user, { sessionId });

  async function tokensOf(sessionId: string) {
    return database.db.select().from(queueTokens).where(eq(queueTokens.sessionId, sessionId));
  }
  async function counter(sessionId: string) {
    const [row] = await database.db.select().from(sessions).where(eq(sessions.id, sessionId));
    return row?.lastIssuedNumber;
  }

  it('numbers walk-in tokens with the queue prefix and tells each visitor their place', async () => {
    const live = await createLiveSession(t);
    const first = await createTestUser(t);
    const second = await createTestUser(t);
    const a = await take(first, { sessionId: live.session.id });
    expect(a.statusCode).toBe(201);
    expect(a.json().data).toMatchObject({
      number: 1,
      displayNumber: 'A-001',
      status: 'waiting',
      kind: 'walk_in',
      position: 1,
      // No history yet: the service type's planned 10 minutes per place.
      estimatedWaitMinutes: 10,
      visitorEmail: first.email,
    });
    const b = await take(second, { sessionId: live.session.id });
    expect(b.json().data).toMatchObject({
      number: 2,
      displayNumber: 'A-002',
      position: 2,
      estimatedWaitMinutes: 20,
    });
  });

  it("writes each issued visitor's place in service order into their message", async () => {
    const live = await createLiveSession(t);
    const staff = live.owner;
    const mail = (name: string) => `${name}-${live.session.id}@example.test`;
    await take(staff, { sessionId: live.session.id, visitorName: 'First' });
    await take(staff, { sessionId: live.session.id, visitorName: 'B', visitorEmail: mail('b') });
    // Priority goes ahead of both earlier numbers.
    await take(staff, {
      sessionId: live.session.id,
      visitorName: 'C',
      visitorEmail: mail('c'),
      priority: 5,
    });
    const textTo = async (recipient: string) =>
      (
        await database.db.select().from(notifications).where(eq(notifications.recipient, recipient))
      )[0]?.text;
    expect(await textTo(mail('b'))).toContain('You are number 2 in line');
    expect(await textTo(mail('c'))).toContain('You are number 1 in line');
  });

  it('refuses bad requests with a stable code and changes nothing', async () => {
    const live = await createLiveSession(t, { capacity: 1 });
    const visitor = await createTestUser(t);
    const cases: Array<
      [
        string,
        Promise<{ statusCode: number; json: () => { error: { code: string } } }>,
        number,
        string,
      ]
    > = [
      ['anonymous', take(undefined, { sessionId: live.session.id }), 401, 'unauthorized'],
      [
        'unknown session',
        take(visitor, { sessionId: crypto.randomUUID() }),
        404,
        'session_not_found',
      ],
      ['not a uuid', take(visitor, { sessionId: 'abc' }), 400, 'validation_failed'],
      [
        'priority by a visitor',
        take(visitor, { sessionId: live.session.id, priority: 5 }),
        403,
        'forbidden',
      ],
    ];
    for (const [name, request, status, code] of cases) {
      const response = await request;
      expect({ name, status: response.statusCode, code: response.json().error.code }).toEqual({
        name,
        status,
        code,
      });
    }
    expect(await tokensOf(live.session.id)).toHaveLength(0);
    expect(await counter(live.session.id)).toBe(0);

    expect((await take(visitor, { sessionId: live.session.id })).statusCode).toBe(201);
    const again = await take(visitor, { sessionId: live.session.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('token_limit_reached');
    const full = await take(await createTestUser(t), { sessionId: live.session.id });
    expect(full.json().error.code).toBe('session_full');
    expect(await counter(live.session.id)).toBe(1);

    await live.setStatus('closed');
    const closed = await take(await createTestUser(t), { sessionId: live.session.id });
    expect(closed.json().error.code).toBe('session_closed');

    const privateQueue = await createLiveSession(t, { visibility: 'private' });
    const hidden = await take(visitor, { sessionId: privateQueue.session.id });
    expect(hidden.json().error.code).toBe('session_not_found');
    // An approved join request opens the private queue to that visitor.
    await database.db.insert(joinRequests).values({
      queueId: privateQueue.queue.id,
      userId: visitor.userId,
      status: 'approved',
    });
    expect((await take(visitor, { sessionId: privateQueue.session.id })).statusCode).toBe(201);
    const slotsOnly = await createLiveSession(t, { mode: 'slots' });
    const walkIn = await take(visitor, { sessionId: slotsOnly.session.id });
    expect(walkIn.json().error.code).toBe('walk_in_not_allowed');
    expect(await tokensOf(slotsOnly.session.id)).toHaveLength(0);
  });

  it('lets staff issue a token for a walk-in visitor without an account', async () => {
    const live = await createLiveSession(t);
    const staff = await live.addStaff();
    const response = await take(staff, {
      sessionId: live.session.id,
      visitorName: 'Mrs Alvarez',
      // National format, read in the company's country (GB) and stored in E.164.
      visitorPhone: '07911 123456',
      priority: 2,
    });
    expect(response.statusCode).toBe(201);
    const [row] = await tokensOf(live.session.id);
    expect(row).toMatchObject({
      userId: null,
      visitorName: 'Mrs Alvarez',
      visitorPhone: '+447911123456',
      priority: 2,
      issuedBy: staff.userId,
    });
    const refused = await take(staff, {
      sessionId: live.session.id,
      visitorName: 'Mr Bell',
      visitorPhone: '07911 12',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({
      code: 'invalid_phone',
      details: { field: 'body.visitorPhone', country: 'GB' },
    });
    expect(await tokensOf(live.session.id)).toHaveLength(1);
  });

  it('gives 500 concurrent takers of a 300-place session exactly tokens 1 to 300', async () => {
    const live = await createLiveSession(t, { capacity: 300 });
    const visitors = await Promise.all(Array.from({ length: 500 }, () => createTestUser(t)));
    const responses = await Promise.all(
      visitors.map((visitor) => take(visitor, { sessionId: live.session.id })),
    );
    const created = responses.filter((response) => response.statusCode === 201);
    const refused = responses.filter((response) => response.statusCode !== 201);
    expect(created).toHaveLength(300);
    expect(refused).toHaveLength(200);
    expect(new Set(refused.map((response) => response.json().error.code))).toEqual(
      new Set(['session_full']),
    );
    const numbers = (await tokensOf(live.session.id))
      .map((row) => row.number)
      .sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(await counter(live.session.id)).toBe(300);
  }, 180_000);

  // Only a PostgreSQL server has other connections to hold the session's lock and to watch.
  it.skipIf(driver !== 'postgres')(
    'keeps a burst for one queue out of the pool: two of its issues wait on its lock, the rest in the app',
    async () => {
      const live = await createLiveSession(t, { capacity: 100 });
      const visitors = await Promise.all(Array.from({ length: 6 }, () => createTestUser(t)));
      const locker = new pg.Client({ connectionString: database.url });
      await locker.connect();
      try {
        await locker.query('begin');
        await locker.query('select id from sessions where id = $1 for update', [live.session.id]);
        const responses = Promise.all(
          visitors.map((visitor) => take(visitor, { sessionId: live.session.id })),
        );
        const waitingOnLocks = async () => {
          const { rows } = await locker.query<{ waiting: number }>(
            `select count(*)::int as waiting from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock'`,
          );
          return rows[0]?.waiting;
        };
        await expect.poll(waitingOnLocks, { timeout: 10_000 }).toBe(2);
        // The other four had time to reach the lock, had they been let through.
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(await waitingOnLocks()).toBe(2);
        await locker.query('commit');
        const answered = await responses;
        expect(answered.map((response) => response.statusCode)).toEqual(Array(6).fill(201));
        const numbers = answered
          .map((response) => response.json().data.number)
          .sort((x, y) => x - y);
        expect(numbers).toEqual([1, 2, 3, 4, 5, 6]);
      } finally {
        await locker.end();
      }
    },
  );

  it('books a slot at most up to its capacity, also with 200 concurrent bookings', async () => {
    const live = await createLiveSession(t, {
      capacity: 500,
      slots: { slotMinutes: 30, capacityPerSlot: 5 },
    });
    const visitors = await Promise.all(Array.from({ length: 200 }, () => createTestUser(t)));
    const responses = await Promise.all(
      visitors.map((visitor) =>
        book(visitor, { serviceId: live.serviceId, slotNo: live.futureSlotNo }),
      ),
    );
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(5);
    const codes = new Set(
      responses.filter((r) => r.statusCode !== 201).map((r) => r.json().error.code),
    );
    expect(codes).toEqual(new Set(['slot_full']));
    const [slot] = await database.db
      .select()
      .from(slots)
      .where(
        and(
          eq(slots.sessionServiceId, live.serviceId as string),
          eq(slots.slotNo, live.futureSlotNo),
        ),
      );
    expect(slot?.bookedCount).toBe(5);
    const bookings = await tokensOf(live.session.id);
    expect(bookings).toHaveLength(5);
    // The slot is further off than the live window: booked, not in the line yet.
    expect(bookings.every((row) => row.kind === 'booking' && row.status === 'booked')).toBe(true);
  }, 180_000);

  it('refuses past, blocked, unknown and zero-capacity slots, and walk-in-only queues', async () => {
    const live = await createLiveSession(t, { slots: { slotMinutes: 30, capacityPerSlot: 2 } });
    const visitor = await createTestUser(t);
    const serviceId = live.serviceId as string;
    expect((await book(visitor, { serviceId, slotNo: 1 })).json().error.code).toBe('slot_in_past');
    expect((await book(visitor, { serviceId, slotNo: 999 })).json().error.code).toBe(
      'slot_not_found',
    );
    expect(
      (await book(visitor, { serviceId: crypto.randomUUID(), slotNo: 1 })).json().error.code,
    ).toBe('slot_not_found');
    await database.db
      .update(slots)
      .set({ status: 'blocked' })
      .where(and(eq(slots.sessionServiceId, serviceId), eq(slots.slotNo, live.futureSlotNo)));
    expect((await book(visitor, { serviceId, slotNo: live.futureSlotNo })).json().error.code).toBe(
      'slot_blocked',
    );
    await database.db
      .update(slots)
      .set({ capacity: 0 })
      .where(and(eq(slots.sessionServiceId, serviceId), eq(slots.slotNo, live.futureSlotNo + 1)));
    expect(
      (await book(visitor, { serviceId, slotNo: live.futureSlotNo + 1 })).json().error.code,
    ).toBe('slot_full');
    expect(await tokensOf(live.session.id)).toHaveLength(0);

    const walkInOnly = await createLiveSession(t, {
      mode: 'walk_in',
      slots: { slotMinutes: 30, capacityPerSlot: 2 },
    });
    const refused = await book(visitor, {
      serviceId: walkInOnly.serviceId,
      slotNo: walkInOnly.futureSlotNo,
    });
    expect(refused.json().error.code).toBe('booking_not_allowed');
  });

  it('calls by priority, then bookings whose slot has started, then number', async () => {
    const live = await createLiveSession(t, {
      capacity: 50,
      tokensPerVisitor: 5,
      slots: { slotMinutes: 30, capacityPerSlot: 3 },
    });
    const staff = await live.addStaff();
    const visitor = await createTestUser(t);
    const walkIn1 = (await take(visitor, { sessionId: live.session.id })).json().data;
    const walkIn2 = (await take(visitor, { sessionId: live.session.id })).json().data;
    const booking = (
      await book(visitor, { serviceId: live.serviceId, slotNo: live.futureSlotNo })
    ).json().data;
    const urgent = (
      await take(staff, { sessionId: live.session.id, visitorName: 'Urgent', priority: 5 })
    ).json().data;
    // The booking's slot starts now: it goes ahead of walk-ins with lower numbers.
    await database.db
      .update(queueTokens)
      .set({ slotStartsAt: new Date(Date.now() - 60_000) })
      .where(eq(queueTokens.id, booking.id));
    const order: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await next(staff, live.session.id);
      order.push(response.json().data.called.id);
    }
    expect(order).toEqual([urgent.id, booking.id, walkIn1.id, walkIn2.id]);
    const empty = await next(staff, live.session.id);
    expect(empty.json().data).toMatchObject({
      called: null,
      completed: { id: walkIn2.id, status: 'served' },
    });
  });

  it('hands each of 10 waiting tokens to exactly one of 10 staff pressing next at once', async () => {
    const live = await createLiveSession(t);
    const staff = await Promise.all(Array.from({ length: 10 }, () => live.addStaff()));
    for (let i = 0; i < 10; i += 1)
      await take(await createTestUser(t), { sessionId: live.session.id });
    const responses = await Promise.all(staff.map((member) => next(member, live.session.id)));
    const called = responses.map((response) => response.json().data.called?.id);
    expect(called.every(Boolean)).toBe(true);
    expect(new Set(called).size).toBe(10);
    const rows = await tokensOf(live.session.id);
    expect(new Set(rows.map((row) => row.calledBy)).size).toBe(10);
  }, 120_000);

  it('lets only staff of the company run the queue, and only an open session', async () => {
    const live = await createLiveSession(t);
    const other = await createLiveSession(t);
    const visitor = await createTestUser(t);
    await take(visitor, { sessionId: live.session.id });
    expect((await next(visitor, live.session.id)).json().error.code).toBe('forbidden');
    expect((await next(other.owner, live.session.id)).json().error.code).toBe('forbidden');
    await live.setStatus('paused');
    const paused = await next(live.owner, live.session.id);
    expect(paused.json().error.code).toBe('session_not_open');
    const [row] = await tokensOf(live.session.id);
    expect(row?.status).toBe('waiting');
  });

  it('recalls, requeues, serves and marks no-shows, refusing any other transition', async () => {
    const live = await createLiveSession(t, { tokensPerVisitor: 3 });
    const visitor = await createTestUser(t);
    const act = (id: string, action: string, user: TestUser = live.owner) =>
      post(`/queues/sessions/tokens/${id}/${action}`, user, {});
    const first = (await take(visitor, { sessionId: live.session.id })).json().data;
    const second = (await take(visitor, { sessionId: live.session.id })).json().data;
    expect((await act(first.id, 'complete')).json().error).toMatchObject({
      code: 'invalid_token_transition',
      details: { from: 'waiting' },
    });
    expect((await act(first.id, 'recall', visitor)).json().error.code).toBe('forbidden');
    await next(live.owner, live.session.id);
    expect((await act(first.id, 'recall')).json().data).toMatchObject({ status: 'called' });
    expect((await act(first.id, 'requeue')).json().data).toMatchObject({
      status: 'waiting',
      calledAt: null,
    });
    await next(live.owner, live.session.id);
    expect((await act(first.id, 'no-show')).json().data).toMatchObject({ status: 'no_show' });
    expect((await act(first.id, 'requeue')).json().error.code).toBe('invalid_token_transition');
    const secondCall = await next(live.owner, live.session.id);
    expect(secondCall.json().data.called.id).toBe(second.id);
    expect((await act(second.id, 'start')).json().data).toMatchObject({ status: 'serving' });
    expect((await act(second.id, 'complete')).json().data).toMatchObject({ status: 'served' });
    expect((await act(crypto.randomUUID(), 'complete')).json().error.code).toBe('token_not_found');
    expect((await act(second.id, 'explode')).statusCode).toBe(400);
  });

  it('cancels by the holder or staff, frees a booked slot, and hides tokens from others', async () => {
    const live = await createLiveSession(t, { slots: { slotMinutes: 30, capacityPerSlot: 1 } });
    const holder = await createTestUser(t);
    const stranger = await createTestUser(t);
    const booking = (
      await book(holder, { serviceId: live.serviceId, slotNo: live.futureSlotNo })
    ).json().data;
    const refused = await post('/queues/sessions/slots/tokens-cancel', stranger, {
      tokenId: booking.id,
    });
    expect(refused.json().error.code).toBe('token_not_found');
    const cancelled = await post('/queues/sessions/slots/tokens-cancel', holder, {
      tokenId: booking.id,
      reason: 'Feeling better',
    });
    expect(cancelled.json().data).toMatchObject({
      status: 'cancelled',
      cancelReason: 'Feeling better',
    });
    expect(
      (await post('/queues/sessions/tokens-cancel', holder, { tokenId: booking.id })).json().error
        .code,
    ).toBe('invalid_token_transition');
    // The slot is free again.
    expect(
      (await book(stranger, { serviceId: live.serviceId, slotNo: live.futureSlotNo })).statusCode,
    ).toBe(201);
    const walkIn = (await take(holder, { sessionId: live.session.id })).json().data;
    const byStaff = await post('/queues/sessions/tokens-cancel', live.owner, {
      tokenId: walkIn.id,
    });
    expect(byStaff.json().data.cancelReason).toBe('cancelled_by_staff');
  });

  it('lists a session for staff with contacts, and only their own for a visitor', async () => {
    const live = await createLiveSession(t);
    const one = await createTestUser(t);
    const two = await createTestUser(t);
    await take(one, { sessionId: live.session.id });
    await take(two, { sessionId: live.session.id });
    const staffView = await post('/queues/sessions/tokens-query', live.owner, {
      sessionId: live.session.id,
    });
    expect(
      staffView
        .json()
        .data.map((token: { visitorEmail: string }) => token.visitorEmail)
        .sort(),
    ).toEqual([one.email, two.email].sort());
    const ownView = await post('/queues/sessions/tokens-query', one, {
      sessionId: live.session.id,
    });
    expect(ownView.json().data).toHaveLength(1);
    expect(ownView.json().data[0]).toMatchObject({ visitorEmail: one.email, position: 1 });
    const mine = await post('/queues/sessions/tokens-query', two, { mine: true });
    expect(mine.json().data).toHaveLength(1);
    expect((await post('/queues/sessions/tokens-query', two, {})).json().error.code).toBe(
      'validation_failed',
    );
    const slotList = await t.app.inject({
      method: 'GET',
      url: `/api/queues/sessions/${live.session.id}/slots/1/tokens`,
      headers: one.headers,
    });
    expect(slotList.json().error.code).toBe('forbidden');
  });

  it('reports average, median and 90th percentile service times to staff', async () => {
    const live = await createLiveSession(t, { capacity: 10 });
    const seconds = [60, 120, 180, 240, 600];
    for (const _ of seconds) await take(await createTestUser(t), { sessionId: live.session.id });
    const served: string[] = [];
    for (const _ of seconds)
      served.push((await next(live.owner, live.session.id)).json().data.called.id);
    await next(live.owner, live.session.id);
    for (const [i, id] of served.entries()) {
      const response = await post('/queues/sessions/service-time', live.owner, {
        tokenId: id,
        seconds: seconds[i],
      });
      expect(response.statusCode).toBe(200);
    }
    const stats = await post('/queues/sessions/service-time-query', live.owner, {
      queueId: live.queue.id,
    });
    expect(stats.json().data).toMatchObject({
      tokens: 5,
      serviceSeconds: { average: 240, median: 180, p90: 456 },
    });
    expect(stats.json().data.waitSeconds.average).toBeGreaterThanOrEqual(0);
    const visitor = await createTestUser(t);
    expect(
      (
        await post('/queues/sessions/service-time-query', visitor, { queueId: live.queue.id })
      ).json().error.code,
    ).toBe('forbidden');
    // The estimate now learns from history: 180 s median per place.
    const waiting = (await take(visitor, { sessionId: live.session.id })).json().data;
    expect(waiting).toMatchObject({ position: 1, estimatedWaitMinutes: 3 });
  });

  it('announces after commit: the session state, the call to its holder, positions; nothing for a refusal', async () => {
    const live = await createLiveSession(t, { turnApproachingThreshold: 1 });
    const first = await createTestUser(t);
    const second = await createTestUser(t);
    await take(first, { sessionId: live.session.id });
    await take(second, { sessionId: live.session.id });
    published.length = 0;
    await take(first, { sessionId: live.session.id }); // refused: limit reached
    expect(published).toHaveLength(0);

    await next(live.owner, live.session.id);
    const profiles = await database.db.query.userProfiles.findMany();
    const topicOf = (user: TestUser) =>
      `/topic/user/${profiles.find((p) => p.userId === user.userId)?.subscribeId}`;
    expect(published).toContainEqual({
      destination: topicOf(first),
      body: expect.objectContaining({
        type: 'token.called',
        label: 'A-001',
        serviceArea: 'Counter 1',
      }),
    });
    expect(published).toContainEqual({
      destination: `/topic/session/${live.session.id}`,
      body: expect.objectContaining({
        type: 'session.state',
        nowServing: { number: 1, label: 'A-001' },
        waitingCount: 1,
      }),
    });
    expect(published).toContainEqual({
      destination: `/topic/session/${live.session.id}`,
      body: expect.objectContaining({ type: 'session.now_serving', label: 'A-001', recall: false }),
    });
    expect(published).toContainEqual({
      destination: topicOf(second),
      body: expect.objectContaining({ type: 'token.turn_approaching', position: 1 }),
    });
    // Every event is one the contract (and so the web client) knows.
    for (const event of published) {
      const schema = event.destination.startsWith('/topic/session/') ? sessionEvent : userEvent;
      expect(schema.safeParse(event.body).success).toBe(true);
    }
    const sessionEvents = published.filter((event) =>
      event.destination.startsWith('/topic/session/'),
    );
    expect(JSON.stringify(sessionEvents)).not.toContain(first.email);
  });

  it('gives booking details with a calendar file to the holder only', async () => {
    const live = await createLiveSession(t, { slots: { slotMinutes: 30, capacityPerSlot: 2 } });
    const holder = await createTestUser(t);
    const booking = (
      await book(holder, { serviceId: live.serviceId, slotNo: live.futureSlotNo })
    ).json().data;
    const details = await t.app.inject({
      method: 'GET',
      url: `/api/queues/sessions/slots/booking-details?tokenId=${booking.id}`,
      headers: holder.headers,
    });
    expect(details.json().data).toMatchObject({
      queueName: 'General practice',
      serviceName: 'Consultation',
      timezone: 'UTC',
    });
    expect(details.json().data.calendar).toContain('BEGIN:VEVENT');
    const ics = await t.app.inject({
      method: 'GET',
      url: `/api/queues/sessions/slots/booking-details?tokenId=${booking.id}&format=ics`,
      headers: holder.headers,
    });
    expect(ics.headers['content-type']).toContain('text/calendar');
    expect(ics.body).toContain(
      `DTSTART:${booking.slotStartsAt.replace(/[-:]/g, '').replace(/\.\d{3}/, '')}`,
    );
    const stranger = await createTestUser(t);
    const hidden = await t.app.inject({
      method: 'GET',
      url: `/api/queues/sessions/slots/booking-details?tokenId=${booking.id}`,
      headers: stranger.headers,
    });
    expect(hidden.json().error.code).toBe('token_not_found');
  });

  it('shows a public board without personal data, and hides private queues from outsiders', async () => {
    const live = await createLiveSession(t);
    const visitors = await Promise.all(Array.from({ length: 3 }, () => createTestUser(t)));
    for (const visitor of visitors) await take(visitor, { sessionId: live.session.id });
    await next(live.owner, live.session.id);
    await next(live.owner, live.session.id);
    const board = await t.app.inject({
      method: 'GET',
      url: `/api/queues/sessions/${live.session.id}/board`,
    });
    const data = board.json().data;
    expect(data).toMatchObject({
      status: 'open',
      joinCode: live.queue.joinCode,
      counter: 'Counter 1',
      nowServing: 'A-002',
      nowServingCounter: 'Counter 1',
      recentlyCalled: [{ label: 'A-001', counter: 'Counter 1' }],
      waiting: 1,
    });
    // Each call carries when it was made, newest first.
    expect(Date.parse(data.nowServingAt)).toBeGreaterThanOrEqual(
      Date.parse(data.recentlyCalled[0].calledAt),
    );
    for (const visitor of visitors) expect(board.body).not.toContain(visitor.email);
    const hidden = await createLiveSession(t, { visibility: 'private' });
    const url = `/api/queues/sessions/${hidden.session.id}/board`;
    expect((await t.app.inject({ method: 'GET', url })).json().error.code).toBe(
      'session_not_found',
    );
    expect(
      (await t.app.inject({ method: 'GET', url, headers: hidden.owner.headers })).statusCode,
    ).toBe(200);
  });

  it('cancels the live tokens when staff cancel the session, and tells their holders', async () => {
    const live = await createLiveSession(t);
    const visitor = await createTestUser(t);
    const token = (await take(visitor, { sessionId: live.session.id })).json().data;
    published.length = 0;
    const cancelled = await post('/queues/sessions/status', live.owner, {
      sessionId: live.session.id,
      status: 'cancelled',
    });
    expect(cancelled.statusCode).toBe(200);
    const [row] = await tokensOf(live.session.id);
    expect(row).toMatchObject({
      id: token.id,
      status: 'cancelled',
      cancelReason: 'session_cancelled',
    });
    expect(published).toContainEqual({
      destination: expect.stringMatching(/^\/topic\/user\//),
      body: expect.objectContaining({
        type: 'token.cancelled',
        tokenId: token.id,
        reason: 'session_cancelled',
      }),
    });
    const after = await take(await createTestUser(t), { sessionId: live.session.id });
    expect(after.json().error.code).toBe('session_closed');
  });

  it('asks a visitor’s name once: the first one given becomes their profile’s and names their next tokens', async () => {
    const first = await createLiveSession(t);
    const second = await createLiveSession(t);
    const visitor = await createTestUser(t);
    const named = await take(visitor, { sessionId: first.session.id, visitorName: 'Vera Lynn' });
    expect(named.json().data.visitorName).toBe('Vera Lynn');
    const profile = async (userId: string) =>
      (await database.db.select().from(userProfiles).where(eq(userProfiles.userId, userId)))[0];
    expect((await profile(visitor.userId))?.displayName).toBe('Vera Lynn');

    // The next token, no name given: staff still see the person's name, not their address.
    const next = await take(visitor, { sessionId: second.session.id });
    expect(next.json().data.visitorName).toBe('Vera Lynn');

    // A later name names that token only: the profile keeps the first.
    const third = await createLiveSession(t);
    const renamed = await take(visitor, { sessionId: third.session.id, visitorName: 'V. Lynn' });
    expect(renamed.json().data.visitorName).toBe('V. Lynn');
    expect((await profile(visitor.userId))?.displayName).toBe('Vera Lynn');

    // Staff issuing for a walk-in name the walk-in, not themselves.
    const walkIn = await take(first.owner, {
      sessionId: first.session.id,
      visitorName: 'Walter Inn',
    });
    expect(walkIn.json().data.visitorName).toBe('Walter Inn');
    expect((await profile(first.owner.userId))?.displayName ?? '').not.toBe('Walter Inn');
  });
});
