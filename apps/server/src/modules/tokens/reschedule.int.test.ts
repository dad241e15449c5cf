import type { IntakeQuestion } from '@upnext/contract/intake';
import { userEvent } from '@upnext/contract/realtime';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  companyTokenMonths,
  notifications,
  queues,
  sessionServices,
  sessions,
  slots,
} from '../../db/schema/index.ts';
import { queueTokens } from '../../db/schema/tokens.ts';
import { localDate } from '../../lib/dates.ts';
import type { EventPublisher } from '../../lib/events.ts';
import { giveProfile } from '../../realtime/testing.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createLiveSession } from '../../test/live-session.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';

type Live = Awaited<ReturnType<typeof createLiveSession>>;
const HOUR = 3_600_000;

const questions: IntakeQuestion[] = [
  {
    id: 'reason',
    label: 'What brings you in?',
    helpText: '',
    kind: 'text',
    options: [],
    required: true,
  },
  {
    id: 'first-visit',
    label: 'First visit?',
    helpText: 'So we can plan the time',
    kind: 'choice',
    options: ['Yes', 'No'],
    required: true,
  },
  {
    id: 'notes',
    label: 'Anything else?',
    helpText: '',
    kind: 'text',
    options: [],
    required: false,
  },
];
const goodAnswers = [
  { questionId: 'reason', value: 'A sore knee' },
  { questionId: 'first-visit', value: 'No' },
];

describe.each(testDrivers)('booking intake, rescheduling and the change window (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  const published: Array<{ destination: string; body: unknown }> = [];
  const publisher: EventPublisher = {
    publish: (destination, body) => void published.push({ destination, body }),
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database, {}, { publisher });
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  const post = (url: string, user: TestUser | undefined, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api${url}`,
      payload,
      ...(user ? { headers: user.headers } : {}),
    });
  const book = (user: TestUser, payload: object) =>
    post('/queues/sessions/slots/tokens', user, payload);
  const reschedule = (user: TestUser | undefined, payload: object) =>
    post('/queues/sessions/slots/tokens-reschedule', user, payload);

  /** A session tomorrow-ish of a fresh queue (slots of 30 min, 2 places each), with its questions. */
  async function bookingQueue(
    options: { cutoff?: number; capacityPerSlot?: number; capacity?: number } = {},
  ) {
    const live = await createLiveSession(t, {
      mode: 'slots',
      startsInHours: 24,
      capacity: options.capacity ?? 100,
      tokensPerVisitor: 5,
      slots: { slotMinutes: 30, capacityPerSlot: options.capacityPerSlot ?? 2 },
    });
    await database.db
      .update(queues)
      .set({ intakeQuestions: questions, changeCutoffMinutes: options.cutoff ?? 0 })
      .where(eq(queues.id, live.queue.id));
    return live;
  }

  /** Another session of the same queue, `startsInHours` from now, with the same service. */
  async function secondSession(live: Live, startsInHours: number) {
    const startsAt = new Date(Date.now() + startsInHours * HOUR);
    const endsAt = new Date(startsAt.getTime() + 2 * HOUR);
    const time = (instant: Date) => instant.toISOString().slice(11, 19);
    const [session] = await database.db
      .insert(sessions)
      .values({
        queueId: live.queue.id,
        subQueueId: live.subQueue.id,
        date: localDate(startsAt, 'UTC'),
        startTime: time(startsAt),
        endTime: time(endsAt),
        timezone: 'UTC',
        startsAt,
        endsAt,
        capacity: 10,
        status: 'scheduled',
      })
      .returning();
    const [service] = await database.db
      .insert(sessionServices)
      .values({
        sessionId: session?.id as string,
        serviceTypeId: live.serviceType.id,
        slotMinutes: 30,
        capacityPerSlot: 1,
      })
      .returning();
    await database.db.insert(slots).values(
      [0, 1, 2, 3].map((i) => ({
        sessionServiceId: service?.id as string,
        slotNo: i + 1,
        startsAt: new Date(startsAt.getTime() + i * 30 * 60_000),
        endsAt: new Date(startsAt.getTime() + (i + 1) * 30 * 60_000),
        capacity: 1,
      })),
    );
    return { sessionId: session?.id as string, serviceId: service?.id as string };
  }

  async function booked(serviceId: string, slotNo: number) {
    const [row] = await database.db
      .select({ count: slots.bookedCount })
      .from(slots)
      .where(and(eq(slots.sessionServiceId, serviceId), eq(slots.slotNo, slotNo)));
    return row?.count;
  }

  async function aBooking(live: Live, slotNo = 1, user?: TestUser) {
    const visitor = user ?? (await createTestUser(t));
    const response = await book(visitor, {
      serviceId: live.serviceId,
      slotNo,
      answers: goodAnswers,
    });
    expect(response.statusCode, response.body).toBe(201);
    return { visitor, token: response.json().data };
  }

  it('keeps the answers to the queue questions with the booking, for its holder and staff only', async () => {
    const live = await bookingQueue({ cutoff: 120 });
    const visitor = await createTestUser(t);
    const response = await book(visitor, {
      serviceId: live.serviceId,
      slotNo: 1,
      answers: [...goodAnswers, { questionId: 'notes', value: '  ' }],
    });
    expect(response.statusCode, response.body).toBe(201);
    const token = response.json().data;
    // In the questions' order, with the label asked; an empty optional answer is dropped.
    expect(token.answers).toEqual([
      { questionId: 'reason', label: 'What brings you in?', value: 'A sore knee' },
      { questionId: 'first-visit', label: 'First visit?', value: 'No' },
    ]);
    expect(Date.parse(token.changeUntil)).toBe(Date.parse(token.slotStartsAt) - 120 * 60_000);
    const staffView = await post('/queues/sessions/tokens-query', live.owner, {
      sessionId: live.session.id,
    });
    expect(staffView.json().data[0].answers).toHaveLength(2);
    const details = await t.app.inject({
      method: 'GET',
      url: `/api/queues/sessions/slots/booking-details?tokenId=${token.id}`,
      headers: visitor.headers,
    });
    expect(details.json().data.token.answers).toHaveLength(2);
  });

  it('refuses a booking whose answers miss a required question or a choice, naming it', async () => {
    const live = await bookingQueue();
    const visitor = await createTestUser(t);
    const cases = [
      { answers: [{ questionId: 'first-visit', value: 'No' }], id: 'reason', reason: 'required' },
      {
        answers: [goodAnswers[0], { questionId: 'first-visit', value: 'Maybe' }],
        id: 'first-visit',
        reason: 'not_an_option',
      },
      {
        answers: [...goodAnswers, { questionId: 'shoe-size', value: '42' }],
        id: 'shoe-size',
        reason: 'unknown_question',
      },
    ];
    for (const { answers, id, reason } of cases) {
      const response = await book(visitor, { serviceId: live.serviceId, slotNo: 1, answers });
      expect(response.statusCode).toBe(400);
      const error = response.json().error;
      expect(error.code).toBe('validation_failed');
      expect(error.details.issues).toEqual([
        expect.objectContaining({ field: 'body.answers', questionId: id, reason }),
      ]);
    }
    // Too long an answer is refused by the contract's bound.
    const long = await book(visitor, {
      serviceId: live.serviceId,
      slotNo: 1,
      answers: [{ questionId: 'reason', value: 'x'.repeat(1001) }, goodAnswers[1]],
    });
    expect(long.statusCode).toBe(400);
    expect(await booked(live.serviceId as string, 1)).toBe(0);
  });

  it('asks walk-ins the same questions, online and at the desk; a refusal takes no number', async () => {
    const live = await createLiveSession(t, { capacity: 100, tokensPerVisitor: 5 });
    await database.db
      .update(queues)
      .set({ intakeQuestions: questions })
      .where(eq(queues.id, live.queue.id));
    const take = (user: TestUser, payload: object) =>
      post('/queues/sessions/tokens', user, { sessionId: live.session.id, ...payload });
    const lastNumber = async () =>
      (
        await database.db
          .select({ last: sessions.lastIssuedNumber })
          .from(sessions)
          .where(eq(sessions.id, live.session.id))
      )[0]?.last;

    const visitor = await createTestUser(t);
    const refusals = [
      await take(visitor, {}),
      await take(visitor, { answers: [goodAnswers[0], { questionId: 'first-visit', value: '?' }] }),
      // Staff at the desk answer for the visitor in front of them, by the same rule.
      await take(live.owner, { visitorName: 'Walk In', answers: [goodAnswers[1]] }),
    ];
    expect(refusals.map((response) => response.statusCode)).toEqual([400, 400, 400]);
    expect(
      refusals.map((response) =>
        response
          .json()
          .error.details.issues.map((issue: { questionId: string; reason: string }) => [
            issue.questionId,
            issue.reason,
          ]),
      ),
    ).toEqual([
      [
        ['reason', 'required'],
        ['first-visit', 'required'],
      ],
      [['first-visit', 'not_an_option']],
      [['reason', 'required']],
    ]);
    expect(await lastNumber()).toBe(0);

    const online = await take(visitor, { answers: goodAnswers });
    const desk = await take(live.owner, {
      visitorName: 'Walk In',
      answers: [...goodAnswers, { questionId: 'notes', value: 'Uses a wheelchair' }],
    });
    expect([online.statusCode, desk.statusCode]).toEqual([201, 201]);
    expect(online.json().data).toMatchObject({ kind: 'walk_in', number: 1 });
    expect(online.json().data.answers.map((answer: { label: string }) => answer.label)).toEqual([
      'What brings you in?',
      'First visit?',
    ]);
    expect(desk.json().data.answers).toContainEqual({
      questionId: 'notes',
      label: 'Anything else?',
      value: 'Uses a wheelchair',
    });
    // Staff see the walk-ins' answers in the session's tokens.
    const staffView = await post('/queues/sessions/tokens-query', live.owner, {
      sessionId: live.session.id,
    });
    expect(
      staffView.json().data.map((token: { answers: unknown[] }) => token.answers.length),
    ).toEqual([2, 3]);
  });

  it('takes questions from managers only within the schema, and shows them on the queue', async () => {
    const live = await bookingQueue();
    const patch = (payload: object) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/company/queues/${live.queue.id}`,
        headers: live.owner.headers,
        payload,
      });
    const bad = await patch({
      intakeQuestions: [
        { id: 'a', label: 'Pick', kind: 'choice', options: ['Only'], required: true },
      ],
    });
    expect(bad.statusCode).toBe(400);
    const ok = await patch({
      changeCutoffMinutes: 60,
      intakeQuestions: [{ id: 'a', label: 'Your name at birth?', kind: 'text', required: false }],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({
      changeCutoffMinutes: 60,
      intakeQuestions: [{ id: 'a', helpText: '', options: [], required: false }],
    });
  });

  it('moves a booking to another slot of its session: counts, token and message', async () => {
    const live = await bookingQueue();
    const { visitor, token } = await aBooking(live, 1);
    await giveProfile(database.db, visitor.userId);
    published.length = 0;
    const response = await reschedule(visitor, {
      tokenId: token.id,
      serviceId: live.serviceId,
      slotNo: 3,
    });
    expect(response.statusCode, response.body).toBe(200);
    const moved = response.json().data;
    expect(moved).toMatchObject({
      id: token.id,
      number: token.number,
      slotNo: 3,
      status: 'booked',
    });
    expect(moved.statusUrl).toBe(token.statusUrl);
    expect(moved.answers).toEqual(token.answers);
    expect(await booked(live.serviceId as string, 1)).toBe(0);
    expect(await booked(live.serviceId as string, 3)).toBe(1);
    const mail = await database.db
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.recipient, visitor.email),
          eq(notifications.template, 'booking_moved'),
        ),
      );
    expect(mail).toHaveLength(1);
    expect(mail[0]?.attachments?.[0]?.content).toContain(`UID:${token.id}@upnext`);
    const event = published.find((entry) => entry.destination.startsWith('/topic/user/'));
    expect(userEvent.parse(event?.body)).toMatchObject({
      type: 'token.rescheduled',
      tokenId: token.id,
      slotStartsAt: moved.slotStartsAt,
    });
    // Asking again for the slot it holds changes nothing.
    const again = await reschedule(visitor, {
      tokenId: token.id,
      serviceId: live.serviceId,
      slotNo: 3,
    });
    expect(again.statusCode).toBe(200);
    expect(await booked(live.serviceId as string, 3)).toBe(1);
  });

  it('moves a booking to another session: a new number there, the old one kept cancelled', async () => {
    const live = await bookingQueue();
    const { visitor, token } = await aBooking(live, 2);
    const other = await secondSession(live, 72);
    const [monthBefore] = await database.db
      .select()
      .from(companyTokenMonths)
      .where(eq(companyTokenMonths.companyId, live.company.id));
    const response = await reschedule(visitor, {
      tokenId: token.id,
      serviceId: other.serviceId,
      slotNo: 2,
    });
    expect(response.statusCode, response.body).toBe(200);
    const moved = response.json().data;
    expect(moved).toMatchObject({
      id: token.id,
      sessionId: other.sessionId,
      number: 1,
      displayNumber: 'A-001',
      statusUrl: token.statusUrl,
    });
    expect(await booked(live.serviceId as string, 2)).toBe(0);
    expect(await booked(other.serviceId, 2)).toBe(1);
    const left = await database.db
      .select()
      .from(queueTokens)
      .where(eq(queueTokens.sessionId, live.session.id));
    expect(left).toEqual([
      expect.objectContaining({
        number: token.number,
        status: 'cancelled',
        cancelReason: 'rescheduled',
        userId: null,
      }),
    ]);
    const [first] = await database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, live.session.id));
    expect(first).toMatchObject({ lastIssuedNumber: 1, releasedPlaces: 1 });
    // Still one token of the month for the plan.
    const [monthAfter] = await database.db
      .select()
      .from(companyTokenMonths)
      .where(eq(companyTokenMonths.companyId, live.company.id));
    expect(monthAfter?.tokens).toBe(monthBefore?.tokens);
    // The visitor sees one booking, the moved one.
    const mine = await post('/queues/sessions/tokens-query', visitor, { mine: true });
    expect(mine.json().data.map((row: { id: string }) => row.id)).toEqual([token.id]);
  });

  it('never overbooks the last place when moves race for it', async () => {
    const live = await bookingQueue({ capacityPerSlot: 1 });
    const bookings = [];
    for (let slotNo = 1; slotNo <= 4; slotNo += 1) bookings.push(await aBooking(live, slotNo));
    // Slot 6 has one place; four moves at once.
    const answers = await Promise.all(
      bookings.map(({ visitor, token }) =>
        reschedule(visitor, { tokenId: token.id, serviceId: live.serviceId, slotNo: 6 }),
      ),
    );
    const statuses = answers.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
    for (const response of answers.filter((r) => r.statusCode === 409)) {
      expect(response.json().error.code).toBe('slot_full');
    }
    expect(await booked(live.serviceId as string, 6)).toBe(1);
    const counts = await Promise.all([1, 2, 3, 4].map((n) => booked(live.serviceId as string, n)));
    expect(counts.reduce((sum, n) => (sum ?? 0) + (n ?? 0), 0)).toBe(3);
  });

  it('refuses full, started and blocked slots, and slots of another queue', async () => {
    const live = await bookingQueue({ capacityPerSlot: 1 });
    const { visitor, token } = await aBooking(live, 1);
    await aBooking(live, 2);
    const to = (slotNo: number, serviceId = live.serviceId) =>
      reschedule(visitor, { tokenId: token.id, serviceId, slotNo });
    expect((await to(2)).json().error.code).toBe('slot_full');
    await database.db
      .update(slots)
      .set({ status: 'blocked' })
      .where(and(eq(slots.sessionServiceId, live.serviceId as string), eq(slots.slotNo, 3)));
    expect((await to(3)).json().error.code).toBe('slot_blocked');
    expect((await to(999)).json().error.code).toBe('slot_not_found');
    // A session of the queue that began an hour ago: its first slot has started.
    const now = await createLiveSession(t, { slots: { slotMinutes: 30, capacityPerSlot: 3 } });
    expect((await to(1, now.serviceId)).json().error.code).toBe('slot_not_found');
    const past = await secondSession(live, -0.25);
    const started = await to(1, past.serviceId);
    expect(started.statusCode).toBe(409);
    expect(started.json().error.code).toBe('slot_in_past');
    expect(await booked(live.serviceId as string, 1)).toBe(1);
  });

  it('lets the holder and the staff running the session move it; nobody else', async () => {
    const live = await bookingQueue();
    const { token } = await aBooking(live, 1);
    const stranger = await createTestUser(t);
    const unassigned = await live.addStaff('staff', { assigned: false });
    const target = { tokenId: token.id, serviceId: live.serviceId, slotNo: 4 };
    expect((await reschedule(undefined, target)).statusCode).toBe(401);
    const foreign = await reschedule(stranger, target);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('token_not_found');
    expect((await reschedule(unassigned, target)).statusCode).toBe(403);
    const byStaff = await reschedule(await live.addStaff('staff'), target);
    expect(byStaff.statusCode, byStaff.body).toBe(200);
    expect(await booked(live.serviceId as string, 4)).toBe(1);
  });

  it('holds visitors to the queue cut-off for cancelling and moving; staff are not bound', async () => {
    // Slots start 24 hours ahead; the cut-off is 25 hours.
    const live = await bookingQueue({ cutoff: 25 * 60 });
    const { visitor, token } = await aBooking(live, 1);
    const moved = await reschedule(visitor, {
      tokenId: token.id,
      serviceId: live.serviceId,
      slotNo: 2,
    });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().error).toMatchObject({
      code: 'change_window_closed',
      details: { cutoffMinutes: 1500 },
    });
    const cancelled = await post('/queues/sessions/slots/tokens-cancel', visitor, {
      tokenId: token.id,
    });
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json().error.code).toBe('change_window_closed');
    expect(await booked(live.serviceId as string, 1)).toBe(1);
    const byOwner = await reschedule(live.owner, {
      tokenId: token.id,
      serviceId: live.serviceId,
      slotNo: 2,
    });
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    const cancelledByOwner = await post('/queues/sessions/slots/tokens-cancel', live.owner, {
      tokenId: token.id,
    });
    expect(cancelledByOwner.statusCode).toBe(200);
    // Within the window (a cut-off of 23 hours) the visitor cancels themselves.
    await database.db
      .update(queues)
      .set({ changeCutoffMinutes: 23 * 60 })
      .where(eq(queues.id, live.queue.id));
    const second = await aBooking(live, 3, visitor);
    const own = await post('/queues/sessions/slots/tokens-cancel', visitor, {
      tokenId: second.token.id,
    });
    expect(own.statusCode, own.body).toBe(200);
  });

  it('moves only bookings not yet due', async () => {
    const live = await bookingQueue();
    const walkInQueue = await createLiveSession(t);
    const visitor = await createTestUser(t);
    const walkIn = await post('/queues/sessions/tokens', visitor, {
      sessionId: walkInQueue.session.id,
    });
    const response = await reschedule(visitor, {
      tokenId: walkIn.json().data.id,
      serviceId: live.serviceId,
      slotNo: 1,
    });
    // A slot of another queue than the token's.
    expect(response.json().error.code).toBe('slot_not_found');
    const { token } = await aBooking(live, 1, visitor);
    await post('/queues/sessions/slots/tokens-cancel', visitor, { tokenId: token.id });
    const cancelled = await reschedule(visitor, {
      tokenId: token.id,
      serviceId: live.serviceId,
      slotNo: 2,
    });
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json().error.code).toBe('invalid_token_transition');
  });
});
