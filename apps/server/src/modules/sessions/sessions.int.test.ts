import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, slots } from '../../db/schema/sessions.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';
import { addMember, createQueueFixture } from './sessions.fixtures.ts';

// Friday 20 March 2026, 10:00 UTC. Europe/London moves to BST on Sunday 29 March.
const NOW = new Date('2026-03-20T10:00:00Z');

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely here; their schemas are checked by the app
type Json = Record<string, any>;

describe.each(testDrivers)('sessions (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let owner: TestUser;
  let fixture: Awaited<ReturnType<typeof createQueueFixture>>;
  const published: Array<{ destination: string; body: unknown }> = [];

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(
      database,
      {},
      {
        clock: () => NOW,
        publisher: { publish: (destination, body) => published.push({ destination, body }) },
      },
    );
    fixture = await createQueueFixture(database.db);
    owner = await createTestUser(t, { timezone: 'Europe/London' });
    await addMember(database.db, fixture.company.id, owner.userId, 'owner');
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  const post = (url: string, payload: unknown, user: TestUser | null = owner) =>
    t.app.inject({
      method: 'POST',
      url: `/api${url}`,
      payload: payload as Json,
      headers: user?.headers ?? {},
    });
  const get = (url: string, user: TestUser | null = owner) =>
    t.app.inject({ method: 'GET', url: `/api${url}`, headers: user?.headers ?? {} });
  const countSessions = async () => (await database.db.select().from(sessions)).length;

  const schedule = (overrides: Json = {}) =>
    post('/queues/sessions/schedule', {
      queueId: fixture.queue.id,
      subQueueId: fixture.subQueueIds[0],
      date: '2026-04-20',
      startTime: '09:00',
      endTime: '12:00',
      capacity: 30,
      ...overrides,
    });

  it('schedules a weekly series across a DST change: local 09:00 stays, instants shift', async () => {
    const response = await schedule({
      date: '2026-03-23',
      startTime: '09:00',
      endTime: '10:00',
      recurrence: { kind: 'weekly', weekdays: [1], until: '2026-04-06' },
      services: [{ serviceTypeId: fixture.serviceTypeId, slotMinutes: 15, capacityPerSlot: 2 }],
    });
    expect(response.statusCode).toBe(201);
    const data = response.json().data;
    expect(data.preview).toBe(false);
    expect(data.timezone).toBe('Europe/London');
    expect(data.sessions.map((s: Json) => [s.date, s.startTime, s.startsAt])).toEqual([
      ['2026-03-23', '09:00', '2026-03-23T09:00:00.000Z'],
      ['2026-03-30', '09:00', '2026-03-30T08:00:00.000Z'],
      ['2026-04-06', '09:00', '2026-04-06T08:00:00.000Z'],
    ]);
    expect(new Set(data.sessions.map((s: Json) => s.seriesId)).size).toBe(1);
    expect(data.seriesId).toBe(data.sessions[0].seriesId);
    expect(data.seriesId).not.toBeNull();

    const services = await get(`/queues/sessions/${data.sessions[1].id}/services`);
    expect(services.json().data).toMatchObject([
      { slotMinutes: 15, capacityPerSlot: 2, slotCount: 4 },
    ]);
    const slotList = await get(`/queues/sessions/services/${services.json().data[0].id}/slots`);
    expect(slotList.json().data.map((s: Json) => [s.slotNo, s.startTime, s.startsAt])).toEqual([
      [1, '09:00', '2026-03-30T08:00:00.000Z'],
      [2, '09:15', '2026-03-30T08:15:00.000Z'],
      [3, '09:30', '2026-03-30T08:30:00.000Z'],
      [4, '09:45', '2026-03-30T08:45:00.000Z'],
    ]);
  });

  it('preview returns what would be created and the conflicts, and saves nothing', async () => {
    const before = await countSessions();
    const response = await schedule({
      date: '2026-03-16',
      startTime: '09:30',
      endTime: '11:00',
      recurrence: { kind: 'weekly', weekdays: [1, 3], until: '2026-03-30' },
      preview: true,
    });
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.preview).toBe(true);
    expect(data.sessions).toEqual([]);
    expect(data.seriesId).toBeNull();
    expect(data.planned.map((p: Json) => p.date)).toEqual([
      '2026-03-16',
      '2026-03-18',
      '2026-03-23',
      '2026-03-25',
      '2026-03-30',
    ]);
    expect(data.conflicts.map((c: Json) => [c.plannedDate, c.date])).toEqual([
      ['2026-03-23', '2026-03-23'],
      ['2026-03-30', '2026-03-30'],
    ]);
    expect(data.planned[2].conflicts).toHaveLength(1);
    expect(data.planned[0].conflicts).toEqual([]);
    expect(await countSessions()).toBe(before);
  });

  it('refuses overlaps on one sub-queue naming the sessions; touching and other sub-queues are fine', async () => {
    const first = await schedule({ date: '2026-05-04', startTime: '09:00', endTime: '12:00' });
    expect(first.statusCode).toBe(201);
    const firstId = first.json().data.sessions[0].id;
    const before = await countSessions();

    const overlapping = await schedule({
      date: '2026-05-04',
      startTime: '11:59',
      endTime: '13:00',
    });
    expect(overlapping.statusCode).toBe(409);
    const error = overlapping.json().error;
    expect(error.code).toBe('session_overlap');
    expect(error.details.conflicts.map((c: Json) => c.sessionId)).toEqual([firstId]);
    expect(await countSessions()).toBe(before);

    const touching = await schedule({ date: '2026-05-04', startTime: '12:00', endTime: '13:00' });
    expect(touching.statusCode).toBe(201);
    const before2 = await schedule({ date: '2026-05-04', startTime: '08:00', endTime: '09:00' });
    expect(before2.statusCode).toBe(201);
    const otherDesk = await schedule({
      date: '2026-05-04',
      subQueueId: fixture.subQueueIds[1],
      startTime: '09:00',
      endTime: '12:00',
    });
    expect(otherDesk.statusCode).toBe(201);
  });

  it('refuses a whole new series when one occurrence meets a session, and saves none of it', async () => {
    const single = await schedule({ date: '2026-06-10', startTime: '14:00', endTime: '15:00' });
    expect(single.statusCode).toBe(201);
    const before = await countSessions();
    const series = await schedule({
      date: '2026-06-01',
      startTime: '14:30',
      endTime: '16:00',
      recurrence: { kind: 'weekly', weekdays: [3], until: '2026-06-30' },
    });
    expect(series.statusCode).toBe(409);
    expect(series.json().error.details.conflicts).toMatchObject([
      { plannedDate: '2026-06-10', sessionId: single.json().data.sessions[0].id },
    ]);
    expect(await countSessions()).toBe(before);
  });

  it('lets a series skip a clashing date, by name or every conflict, and shows it in the preview', async () => {
    const single = await schedule({ date: '2026-07-15', startTime: '14:00', endTime: '15:00' });
    expect(single.statusCode).toBe(201);
    const series = {
      date: '2026-07-01',
      startTime: '14:30',
      endTime: '16:00',
      recurrence: { kind: 'weekly', weekdays: [3], until: '2026-07-29' },
    };
    const preview = await schedule({ ...series, skipConflicts: true, preview: true });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data.planned.map((p: Json) => [p.date, p.skipped])).toEqual([
      ['2026-07-01', false],
      ['2026-07-08', false],
      ['2026-07-15', true],
      ['2026-07-22', false],
      ['2026-07-29', false],
    ]);
    expect(preview.json().data.conflicts).toEqual([]);

    // Without skipping, the series is refused naming the clashing date, and nothing is saved.
    const before = await countSessions();
    const refused = await schedule(series);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('session_overlap');
    expect(refused.json().error.details.conflicts.map((c: Json) => c.plannedDate)).toEqual([
      '2026-07-15',
    ]);

    // A date that is not in the series is refused, and nothing is saved.
    const wrong = await schedule({ ...series, skipDates: ['2026-07-16'] });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('validation_failed');
    expect(wrong.json().error.details.issues[0].field).toBe('body.skipDates');
    const everyDate = await schedule({
      ...series,
      recurrence: { kind: 'weekly', weekdays: [3], until: '2026-07-15' },
      skipDates: ['2026-07-01', '2026-07-08', '2026-07-15'],
    });
    expect(everyDate.statusCode).toBe(400);
    expect(await countSessions()).toBe(before);

    const saved = await schedule({ ...series, skipDates: ['2026-07-15'] });
    expect(saved.statusCode).toBe(201);
    expect(saved.json().data.sessions.map((s: Json) => s.date)).toEqual([
      '2026-07-01',
      '2026-07-08',
      '2026-07-22',
      '2026-07-29',
    ]);
    expect(await countSessions()).toBe(before + 4);
  });

  it('lets only one of two concurrent overlapping schedules on a sub-queue through', async () => {
    const before = await countSessions();
    const [a, b] = await Promise.all([
      schedule({ date: '2026-08-03', startTime: '09:00', endTime: '11:00' }),
      schedule({ date: '2026-08-03', startTime: '10:00', endTime: '12:00' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.statusCode === 409)?.json().error.code).toBe('session_overlap');
    expect(await countSessions()).toBe(before + 1);
  });

  it('never lets a skipping series and a concurrent single session overlap', async () => {
    // The series skips clashes it sees under the queue's lock: whichever runs second sees the other.
    const [single, series] = await Promise.all([
      schedule({ date: '2026-11-18', startTime: '10:00', endTime: '11:00' }),
      schedule({
        date: '2026-11-11',
        startTime: '09:00',
        endTime: '12:00',
        recurrence: { kind: 'weekly', weekdays: [3], until: '2026-11-25' },
        skipConflicts: true,
      }),
    ]);
    expect(series.statusCode).toBe(201);
    expect([201, 409]).toContain(single.statusCode);
    const onTheDay = (await database.db.select().from(sessions)).filter(
      (s) => s.date === '2026-11-18' && s.subQueueId === fixture.subQueueIds[0],
    );
    expect(onTheDay).toHaveLength(1);
    const created = series.json().data.sessions.map((s: Json) => s.date);
    expect(created).toEqual(
      single.statusCode === 201
        ? ['2026-11-11', '2026-11-25']
        : ['2026-11-11', '2026-11-18', '2026-11-25'],
    );
  });

  it('refuses a window that a daylight-saving gap empties, naming the field', async () => {
    // On 29 March 2026 London clocks jump from 01:00 to 02:00: 01:00-02:00 does not exist.
    const response = await schedule({ date: '2026-03-29', startTime: '01:00', endTime: '02:00' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.issues[0].field).toBe('body.endTime');
  });

  it('refuses scheduling on an archived queue', async () => {
    const archived = await createQueueFixture(database.db, { status: 'archived' });
    await addMember(database.db, archived.company.id, owner.userId, 'owner');
    const response = await post('/queues/sessions/schedule', {
      queueId: archived.queue.id,
      date: '2026-04-20',
      startTime: '09:00',
      endTime: '10:00',
      capacity: 5,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('conflict');
  });

  it('answers validation_failed naming the field and changes nothing', async () => {
    const before = await countSessions();
    const backwards = await schedule({ startTime: '12:00', endTime: '09:00' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.code).toBe('validation_failed');
    expect(JSON.stringify(backwards.json().error.details)).toContain('endTime');

    const badDate = await schedule({ date: '2026-02-30' });
    expect(badDate.statusCode).toBe(400);
    expect(JSON.stringify(badDate.json().error.details)).toContain('date');

    const foreignSubQueue = await schedule({ subQueueId: '00000000-0000-4000-8000-000000000000' });
    expect(foreignSubQueue.statusCode).toBe(400);
    expect(foreignSubQueue.json().error.details.issues[0].field).toBe('body.subQueueId');

    const noDates = await schedule({
      date: '2026-07-06',
      recurrence: { kind: 'weekly', weekdays: [6], until: '2026-07-08' },
    });
    expect(noDates.statusCode).toBe(400);
    expect(noDates.json().error.details.issues[0].field).toBe('body.recurrence.weekdays');

    const negative = await schedule({
      services: [{ serviceTypeId: fixture.serviceTypeId, slotMinutes: 0, capacityPerSlot: -1 }],
    });
    expect(negative.statusCode).toBe(400);
    expect(JSON.stringify(negative.json().error.details)).toContain('slotMinutes');
    expect(await countSessions()).toBe(before);
  });

  async function series(date: string, until: string) {
    const response = await schedule({
      date,
      startTime: '09:00',
      endTime: '10:00',
      subQueueId: fixture.subQueueIds[1],
      recurrence: { kind: 'weekly', weekdays: [2], until },
      services: [{ serviceTypeId: fixture.serviceTypeId, slotMinutes: 20, capacityPerSlot: 1 }],
    });
    expect(response.statusCode).toBe(201);
    return response.json().data.sessions as Json[];
  }

  it('edits this session only, or this and the following ones of its series', async () => {
    const [a, b, c] = await series('2026-09-01', '2026-09-15');
    const one = await post('/queues/sessions/edit', {
      sessionId: b?.id,
      scope: 'this',
      changes: { startTime: '09:30', notes: 'Late start' },
    });
    expect(one.statusCode).toBe(200);
    expect(one.json().data.sessions).toMatchObject([
      { id: b?.id, startTime: '09:30', notes: 'Late start' },
    ]);
    // Its slots follow the new window: 09:30-10:00 holds one 20-minute slot.
    const services = (await get(`/queues/sessions/${b?.id}/services`)).json().data;
    expect(services[0].slotCount).toBe(1);

    const following = await post('/queues/sessions/edit', {
      sessionId: b?.id,
      scope: 'following',
      changes: { endTime: '11:00', capacity: 5 },
    });
    expect(following.statusCode).toBe(200);
    expect(
      following.json().data.sessions.map((s: Json) => [s.id, s.startTime, s.endTime, s.capacity]),
    ).toEqual([
      [b?.id, '09:30', '11:00', 5],
      [c?.id, '09:00', '11:00', 5],
    ]);
    const untouched = await get(`/company/queues/${fixture.queue.id}/sessions/${a?.id}`);
    expect(untouched.json().data).toMatchObject({
      startTime: '09:00',
      endTime: '10:00',
      capacity: 30,
    });
  });

  it('refuses edits that overlap, and edits of open sessions or sessions with tokens', async () => {
    const [a, b] = await series('2026-10-06', '2026-10-13');
    const blocker = await schedule({
      date: '2026-10-13',
      subQueueId: fixture.subQueueIds[1],
      startTime: '10:30',
      endTime: '11:30',
    });
    expect(blocker.statusCode).toBe(201);
    const overlap = await post('/queues/sessions/edit', {
      sessionId: a?.id,
      scope: 'following',
      changes: { endTime: '11:00' },
    });
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json().error.code).toBe('session_overlap');
    expect(overlap.json().error.details.conflicts[0].sessionId).toBe(
      blocker.json().data.sessions[0].id,
    );
    const [row] = await database.db.select().from(sessions).where(eq(sessions.id, a?.id));
    expect(row?.endTime).toBe('10:00:00');

    await database.db.update(sessions).set({ status: 'open' }).where(eq(sessions.id, a?.id));
    const open = await post('/queues/sessions/edit', {
      sessionId: a?.id,
      changes: { capacity: 5 },
    });
    expect(open.statusCode).toBe(409);
    expect(open.json().error).toMatchObject({
      code: 'session_not_editable',
      details: { sessions: [{ sessionId: a?.id, status: 'open' }] },
    });
    // Notes change while it runs, and its topic tells the visitors at once.
    const notes = await post('/queues/sessions/edit', {
      sessionId: a?.id,
      changes: { visitorNotes: 'Running 15 minutes late', notes: 'Cover at 11' },
    });
    expect(notes.statusCode).toBe(200);
    expect(notes.json().data.sessions[0]).toMatchObject({
      visitorNotes: 'Running 15 minutes late',
      notes: 'Cover at 11',
    });
    expect(published.at(-1)).toMatchObject({
      destination: `/topic/session/${a?.id}`,
      body: { type: 'session.state', status: 'open', notes: 'Running 15 minutes late' },
    });
    await database.db.update(sessions).set({ lastIssuedNumber: 1 }).where(eq(sessions.id, b?.id));
    const tokens = await post('/queues/sessions/edit', {
      sessionId: b?.id,
      changes: { capacity: 5 },
    });
    expect(tokens.statusCode).toBe(409);
    expect(tokens.json().error).toMatchObject({
      code: 'session_has_tokens',
      details: { sessionIds: [b?.id] },
    });
    const deleteTokens = await post('/queues/sessions/delete', { sessionId: b?.id });
    expect(deleteTokens.json().error.code).toBe('session_has_tokens');
    const deleteOpen = await post('/queues/sessions/delete', {
      sessionId: a?.id,
      scope: 'following',
    });
    expect(deleteOpen.json().error.code).toBe('session_not_editable');
    expect((await database.db.select().from(sessions).where(eq(sessions.id, b?.id))).length).toBe(
      1,
    );
  });

  it('refuses bad edits with validation_failed naming the field and changes nothing', async () => {
    const [a] = await series('2026-10-20', '2026-10-20');
    const empty = await post('/queues/sessions/edit', { sessionId: a?.id, changes: {} });
    expect(empty.statusCode).toBe(400);
    expect(JSON.stringify(empty.json().error.details)).toContain('changes');
    // Starting at 10:30 leaves the stored end (10:00) before the start.
    const late = await post('/queues/sessions/edit', {
      sessionId: a?.id,
      changes: { startTime: '10:30' },
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().error.details.issues[0].field).toBe('body.changes.endTime');
    const dateForSeries = await post('/queues/sessions/edit', {
      sessionId: a?.id,
      scope: 'following',
      changes: { date: '2026-10-21' },
    });
    expect(dateForSeries.statusCode).toBe(400);
    expect(JSON.stringify(dateForSeries.json().error.details)).toContain('changes.date');
    const [row] = await database.db.select().from(sessions).where(eq(sessions.id, a?.id));
    expect([row?.date, row?.startTime, row?.endTime]).toEqual([
      '2026-10-20',
      '09:00:00',
      '10:00:00',
    ]);
  });

  it('leaves cancelled later sessions of a series alone when editing the following ones', async () => {
    const [a, b, c] = await series('2027-02-02', '2027-02-16');
    const cancel = await post('/queues/sessions/status', { sessionId: c?.id, status: 'cancelled' });
    expect(cancel.statusCode).toBe(200);
    const edited = await post('/queues/sessions/edit', {
      sessionId: a?.id,
      scope: 'following',
      changes: { startTime: '08:00' },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data.sessions.map((s: Json) => s.id)).toEqual([a?.id, b?.id]);
    const [row] = await database.db.select().from(sessions).where(eq(sessions.id, c?.id));
    expect([row?.status, row?.startTime]).toEqual(['cancelled', '09:00:00']);
    // Deleting the following ones takes the cancelled one too.
    const deleted = await post('/queues/sessions/delete', { sessionId: b?.id, scope: 'following' });
    expect(deleted.json().data.deletedIds).toEqual([b?.id, c?.id]);
  });

  it('deletes this session, or this and the following ones of its series', async () => {
    const [a, b, c, d] = await series('2026-11-03', '2026-11-24');
    const one = await post('/queues/sessions/delete', { sessionId: b?.id, scope: 'this' });
    expect(one.statusCode).toBe(200);
    expect(one.json().data.deletedIds).toEqual([b?.id]);
    const rest = await post('/queues/sessions/delete', { sessionId: c?.id, scope: 'following' });
    expect(rest.json().data.deletedIds).toEqual([c?.id, d?.id]);
    const left = await database.db
      .select()
      .from(sessions)
      .where(eq(sessions.seriesId, a?.seriesId));
    expect(left.map((s) => s.id)).toEqual([a?.id]);
    const gone = await post('/queues/sessions/delete', { sessionId: b?.id });
    expect(gone.statusCode).toBe(404);
  });

  it('changes status exactly as PRODUCT.md allows and refuses every other pair', async () => {
    const created = await schedule({ date: '2026-12-01', startTime: '09:00', endTime: '10:00' });
    const id = created.json().data.sessions[0].id as string;
    const statuses = ['scheduled', 'open', 'paused', 'closed', 'cancelled'] as const;
    const allowed = new Set([
      'scheduled>open',
      'scheduled>cancelled',
      'open>paused',
      'open>closed',
      'open>cancelled',
      'paused>open',
      'paused>closed',
      'paused>cancelled',
    ]);
    for (const from of statuses) {
      for (const to of statuses) {
        await database.db.update(sessions).set({ status: from }).where(eq(sessions.id, id));
        const response = await post('/queues/sessions/status', { sessionId: id, status: to });
        const [row] = await database.db.select().from(sessions).where(eq(sessions.id, id));
        if (allowed.has(`${from}>${to}`)) {
          expect(response.statusCode, `${from} -> ${to}`).toBe(200);
          expect(response.json().data.status).toBe(to);
          expect(row?.status).toBe(to);
        } else {
          expect(response.statusCode, `${from} -> ${to}`).toBe(409);
          expect(response.json().error).toMatchObject({
            code: 'invalid_transition',
            details: { from, to },
          });
          expect(row?.status).toBe(from);
        }
      }
    }
    expect(published.filter((p) => p.destination === `/topic/session/${id}`)).toHaveLength(
      allowed.size,
    );
  });

  it('cuts slots at the edges: last partial slot dropped, zero capacity never bookable, blocked shown', async () => {
    const created = await schedule({
      date: '2026-12-02',
      startTime: '09:00',
      endTime: '09:50',
      services: [{ serviceTypeId: fixture.serviceTypeId, slotMinutes: 15, capacityPerSlot: 0 }],
    });
    expect(created.statusCode).toBe(201);
    const sessionId = created.json().data.sessions[0].id;
    const [service] = (await get(`/queues/sessions/${sessionId}/services`)).json().data;
    expect(service.slotCount).toBe(3);
    const list = (await get(`/queues/sessions/services/${service.id}/slots`)).json().data;
    expect(
      list.map((s: Json) => [s.slotNo, s.startTime, s.endTime, s.capacity, s.bookable]),
    ).toEqual([
      [1, '09:00', '09:15', 0, false],
      [2, '09:15', '09:30', 0, false],
      [3, '09:30', '09:45', 0, false],
    ]);

    const other = await fixture.serviceTypeId;
    const duplicate = await post(`/queues/sessions/${sessionId}/services`, {
      serviceTypeId: other,
      slotMinutes: 10,
      capacityPerSlot: 1,
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error.code).toBe('service_exists');

    const blocked = await post('/queues/sessions/services/slots-status', {
      serviceId: service.id,
      slotNos: [2],
      status: 'blocked',
    });
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json().data.map((s: Json) => s.status)).toEqual(['open', 'blocked', 'open']);
    const missing = await post('/queues/sessions/services/slots-status', {
      serviceId: service.id,
      slotNos: [3, 4],
      status: 'blocked',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.details.missing).toEqual([4]);
    const rows = await database.db
      .select()
      .from(slots)
      .where(eq(slots.sessionServiceId, service.id));
    expect(rows.filter((r) => r.status === 'blocked').map((r) => r.slotNo)).toEqual([2]);
  });

  it('adds a service to a session with bookable slots', async () => {
    const created = await schedule({ date: '2026-12-03', startTime: '10:00', endTime: '11:00' });
    const sessionId = created.json().data.sessions[0].id;
    const added = await post(`/queues/sessions/${sessionId}/services`, {
      serviceTypeId: fixture.serviceTypeId,
      slotMinutes: 30,
      capacityPerSlot: 3,
    });
    expect(added.statusCode).toBe(201);
    expect(added.json().data).toMatchObject({ serviceTypeName: 'Consultation', slotCount: 2 });
    const list = (await get(`/queues/sessions/services/${added.json().data.id}/slots`)).json().data;
    expect(list.map((s: Json) => s.bookable)).toEqual([true, true]);
  });

  it('lists sessions of a queue, one session with counts, my sessions today and a query', async () => {
    // Today (20 March in London) on the second desk.
    const today = await schedule({
      date: '2026-03-20',
      subQueueId: fixture.subQueueIds[1],
      startTime: '09:00',
      endTime: '17:00',
    });
    expect(today.statusCode).toBe(201);
    const id = today.json().data.sessions[0].id;
    await database.db.update(sessions).set({ status: 'open' }).where(eq(sessions.id, id));

    // Counts come from token rows (modules/tokens/live-state.int.test.ts): none yet.
    const one = await get(`/company/queues/${fixture.queue.id}/sessions/${id}`);
    expect(one.json().data.counts).toEqual({
      issued: 0,
      booked: 0,
      waiting: 0,
      called: 0,
      serving: 0,
      served: 0,
      noShows: 0,
      cancelled: 0,
      nowServing: null,
    });
    const wrongQueue = await get(`/company/queues/${fixture.subQueueIds[0]}/sessions/${id}`);
    expect(wrongQueue.statusCode).toBe(404);

    const mine = await get('/queues/sessions');
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data.map((s: Json) => s.id)).toEqual([id]);
    // On Kiritimati (UTC+14) it is already 21 March: nothing today there.
    const kiwi = await t.app.inject({
      method: 'GET',
      url: '/api/queues/sessions',
      headers: { ...owner.headers, 'x-user-timezone': 'Pacific/Kiritimati' },
    });
    expect(kiwi.json().data).toEqual([]);

    const list = await get(`/queues/${fixture.queue.id}/sessions?from=2026-03-20&to=2026-03-20`);
    expect(list.json().data.map((s: Json) => s.id)).toEqual([id]);
    const queried = await post('/queues/sessions/query', {
      companyId: fixture.company.id,
      from: '2026-03-20',
      to: '2026-03-31',
      status: ['open'],
    });
    expect(queried.json().data.map((s: Json) => s.id)).toEqual([id]);
  });

  it('shows visitors only live sessions of public queues', async () => {
    const visitor = await createTestUser(t);
    const priv = await createQueueFixture(database.db, { visibility: 'private' });
    const privOwner = await createTestUser(t);
    await addMember(database.db, priv.company.id, privOwner.userId, 'owner');
    const hidden = await post(
      '/queues/sessions/schedule',
      {
        queueId: priv.queue.id,
        date: '2026-04-01',
        startTime: '09:00',
        endTime: '10:00',
        capacity: 5,
      },
      privOwner,
    );
    expect(hidden.statusCode).toBe(201);

    const visible = await schedule({
      date: '2026-04-01',
      startTime: '09:00',
      endTime: '10:00',
      subQueueId: null,
    });
    const cancelled = await schedule({
      date: '2026-04-01',
      startTime: '10:00',
      endTime: '11:00',
      subQueueId: null,
    });
    await post('/queues/sessions/status', {
      sessionId: cancelled.json().data.sessions[0].id,
      status: 'cancelled',
    });

    for (const caller of [visitor, null]) {
      const found = await post(
        '/queues/sessions/query',
        { from: '2026-04-01', to: '2026-04-01' },
        caller,
      );
      expect(found.statusCode).toBe(200);
      expect(found.json().data.map((s: Json) => s.id)).toEqual([
        visible.json().data.sessions[0].id,
      ]);
      const privList = await get(`/queues/${priv.queue.id}/sessions`, caller);
      expect(privList.statusCode).toBe(404);
    }
    // Past sessions are not offered to visitors: 2026-03-19 ended before NOW.
    const past = await schedule({
      date: '2026-03-19',
      startTime: '09:00',
      endTime: '10:00',
      subQueueId: null,
    });
    expect(past.statusCode).toBe(201);
    const pastQuery = await post(
      '/queues/sessions/query',
      { from: '2026-03-19', to: '2026-03-19' },
      visitor,
    );
    expect(pastQuery.json().data).toEqual([]);
    const ownerQuery = await post('/queues/sessions/query', {
      from: '2026-03-19',
      to: '2026-03-19',
    });
    expect(ownerQuery.json().data).toHaveLength(1);
  });

  it('lists every session route in the OpenAPI document with its schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
    const document = response.json();
    const paths = document.paths as Record<string, Record<string, Json>>;
    const expected: Array<[string, string]> = [
      ['/api/queues/sessions/schedule', 'post'],
      ['/api/queues/sessions/edit', 'post'],
      ['/api/queues/sessions/delete', 'post'],
      ['/api/queues/sessions/status', 'post'],
      ['/api/queues/{queueId}/sessions', 'get'],
      ['/api/company/queues/{queueId}/sessions/{sessionId}', 'get'],
      ['/api/queues/sessions', 'get'],
      ['/api/queues/sessions/query', 'post'],
      ['/api/queues/sessions/{sessionId}/services', 'get'],
      ['/api/queues/sessions/{sessionId}/services', 'post'],
      ['/api/queues/sessions/services/{serviceId}/slots', 'get'],
      ['/api/queues/sessions/services/slots-status', 'post'],
    ];
    for (const [path, method] of expected) {
      const operation = paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(Object.keys(operation?.responses ?? {})).toContain('401');
      expect(Object.keys(operation?.responses ?? {}).some((s) => s.startsWith('2'))).toBe(true);
      if (method === 'post') expect(operation?.requestBody).toBeDefined();
    }
    const codesOf = (path: string) => paths[path]?.post?.description as string;
    expect(codesOf('/api/queues/sessions/schedule')).toContain('409 session_overlap');
    expect(codesOf('/api/queues/sessions/status')).toContain('409 invalid_transition');
    expect(codesOf('/api/queues/sessions/edit')).toMatch(
      /session_not_editable.*session_has_tokens/,
    );
    expect(codesOf('/api/queues/sessions/delete')).toContain('400 validation_failed');
  });
});
