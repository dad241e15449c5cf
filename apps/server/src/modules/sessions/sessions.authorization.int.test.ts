import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queues, serviceTypes, subQueueStaff, subQueues } from '../../db/schema/queues.ts';
import { sessions, slots } from '../../db/schema/sessions.ts';
import { addDays, localDate } from '../../lib/dates.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import {
  authorizationMatrix,
  createMatrixWorld,
  type MatrixCase,
  type MatrixWorld,
  statuses,
} from '../../test/authorization.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';

type Ids = {
  queueId: string;
  privateQueueId: string;
  assignedSubQueueId: string;
  otherSubQueueId: string;
  serviceTypeId: string;
  session: { id: string; serviceId: string };
  privateSessionId: string;
  todayAssignedId: string;
  todayOtherId: string;
};

type SessionJson = { id: string; queueId: string };

describe.each(testDrivers)('authorisation matrix of sessions (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let world: MatrixWorld;
  let ids: Ids;
  let day = 0;

  /** A session made by the owner, each on a day of its own so none overlap. */
  const freshSession = async (
    options: {
      queueId?: string;
      subQueueId?: string | null;
      date?: string;
      services?: boolean;
    } = {},
  ) => {
    day += 1;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/queues/sessions/schedule',
      headers: world.users.owner.headers,
      payload: {
        queueId: options.queueId ?? ids.queueId,
        subQueueId: options.subQueueId ?? null,
        date: options.date ?? addDays('2027-01-01', day),
        startTime: '09:00',
        endTime: '10:00',
        capacity: 10,
        services: options.services
          ? [{ serviceTypeId: ids.serviceTypeId, slotMinutes: 30, capacityPerSlot: 2 }]
          : [],
      },
    });
    if (response.statusCode !== 201) throw new Error(`schedule: ${response.body}`);
    const session = response.json().data.sessions[0] as SessionJson;
    const [service] = await database.db.query.sessionServices.findMany({
      where: (s, { eq: equal }) => equal(s.sessionId, session.id),
    });
    return { id: session.id, serviceId: service?.id ?? '' };
  };
  const sessionRows = () =>
    database.db.select().from(sessions).orderBy(sessions.id) as Promise<unknown[]>;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database);
    world = await createMatrixWorld(t);
    const db = database.db;
    const [queue, privateQueue] = await db
      .insert(queues)
      .values([
        { companyId: world.companyId, name: 'Open clinic', joinCode: 'OPEN1234' },
        {
          companyId: world.companyId,
          name: 'Secret Ward',
          joinCode: 'HIDE1234',
          visibility: 'private',
        },
      ])
      .returning();
    if (!queue || !privateQueue) throw new Error('queues not created');
    await world.approveRequester(privateQueue.id);
    const [assigned, other] = await db
      .insert(subQueues)
      .values([
        { queueId: queue.id, name: 'Counter 1' },
        { queueId: queue.id, name: 'Counter 2' },
      ])
      .returning();
    if (!assigned || !other) throw new Error('sub-queues not created');
    await db
      .insert(subQueueStaff)
      .values({ subQueueId: assigned.id, userId: world.users.assigned.userId });
    const [serviceType] = await db
      .insert(serviceTypes)
      .values({ queueId: queue.id, name: 'Check-up', durationMinutes: 15 })
      .returning();
    if (!serviceType) throw new Error('service type not created');
    ids = {
      queueId: queue.id,
      privateQueueId: privateQueue.id,
      assignedSubQueueId: assigned.id,
      otherSubQueueId: other.id,
      serviceTypeId: serviceType.id,
      session: { id: '', serviceId: '' },
      privateSessionId: '',
      todayAssignedId: '',
      todayOtherId: '',
    };
    ids.session = await freshSession({ services: true });
    ids.privateSessionId = (await freshSession({ queueId: privateQueue.id })).id;
    const today = localDate(new Date(), 'Europe/London');
    ids.todayAssignedId = (await freshSession({ subQueueId: assigned.id, date: today })).id;
    ids.todayOtherId = (await freshSession({ subQueueId: other.id, date: today })).id;
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  const listed = (body: string) => (JSON.parse(body).data as SessionJson[]).map((s) => s.id);

  const cases: MatrixCase[] = [
    {
      name: 'POST /queues/sessions/schedule',
      request: () => {
        day += 1;
        return {
          method: 'POST',
          url: '/api/queues/sessions/schedule',
          payload: {
            queueId: ids.queueId,
            date: addDays('2027-01-01', day),
            startTime: '09:00',
            endTime: '10:00',
            capacity: 5,
          },
        };
      },
      expect: statuses(201, 201, 403, 403, 403, 403, 403, 401),
      snapshot: sessionRows,
    },
    {
      name: 'POST /queues/sessions/schedule (private queue)',
      request: () => {
        day += 1;
        return {
          method: 'POST',
          url: '/api/queues/sessions/schedule',
          payload: {
            queueId: ids.privateQueueId,
            date: addDays('2027-01-01', day),
            startTime: '09:00',
            endTime: '10:00',
            capacity: 5,
          },
        };
      },
      expect: statuses(201, 201, 403, 403, 404, 403, 404, 401),
      codes: { 404: 'not_found' },
      snapshot: sessionRows,
      secrets: () => ['Secret Ward'],
    },
    {
      name: 'POST /queues/sessions/edit',
      request: async () => ({
        method: 'POST',
        url: '/api/queues/sessions/edit',
        payload: { sessionId: (await freshSession()).id, changes: { notes: 'Moved' } },
      }),
      expect: statuses(200, 200, 403, 403, 403, 403, 403, 401),
      snapshot: sessionRows,
    },
    {
      name: 'POST /queues/sessions/delete',
      request: async () => ({
        method: 'POST',
        url: '/api/queues/sessions/delete',
        payload: { sessionId: (await freshSession()).id, scope: 'following' },
      }),
      expect: statuses(200, 200, 403, 403, 403, 403, 403, 401),
      snapshot: sessionRows,
    },
    {
      name: 'POST /queues/sessions/status (assigned sub-queue)',
      request: async () => ({
        method: 'POST',
        url: '/api/queues/sessions/status',
        payload: {
          sessionId: (await freshSession({ subQueueId: ids.assignedSubQueueId })).id,
          status: 'open',
        },
      }),
      expect: statuses(200, 200, 200, 403, 403, 403, 403, 401),
      snapshot: sessionRows,
    },
    {
      name: 'POST /queues/sessions/status (another sub-queue)',
      request: async () => ({
        method: 'POST',
        url: '/api/queues/sessions/status',
        payload: {
          sessionId: (await freshSession({ subQueueId: ids.otherSubQueueId })).id,
          status: 'cancelled',
        },
      }),
      expect: statuses(200, 200, 403, 403, 403, 403, 403, 401),
      snapshot: sessionRows,
    },
    {
      name: 'POST /queues/sessions/status (private queue)',
      request: async () => ({
        method: 'POST',
        url: '/api/queues/sessions/status',
        payload: { sessionId: ids.privateSessionId, status: 'scheduled' },
      }),
      // Members pass the policy and meet the transition rule; the rest never learn of it.
      expect: statuses(409, 409, 409, 409, 404, 403, 404, 401),
      codes: { 404: 'session_not_found', 409: 'invalid_transition' },
      secrets: () => ['Secret Ward'],
    },
    {
      name: 'GET /queues/{queueId}/sessions',
      request: () => ({
        method: 'GET',
        url: `/api/queues/${ids.queueId}/sessions?from=2027-01-01`,
      }),
      expect: statuses(200, 200, 200, 200, 200, 200, 200, 200),
      check: (response) => expect(listed(response.body)).toContain(ids.session.id),
    },
    {
      name: 'GET /queues/{queueId}/sessions (private queue)',
      request: () => ({
        method: 'GET',
        url: `/api/queues/${ids.privateQueueId}/sessions?from=2027-01-01`,
      }),
      expect: statuses(200, 200, 200, 200, 404, 200, 404, 404),
      codes: { 404: 'not_found' },
      secrets: () => ['Secret Ward', ids.privateSessionId],
    },
    {
      name: 'GET /company/queues/{queueId}/sessions/{sessionId}',
      request: () => ({
        method: 'GET',
        url: `/api/company/queues/${ids.queueId}/sessions/${ids.session.id}`,
      }),
      expect: statuses(200, 200, 200, 200, 200, 200, 200, 200),
    },
    {
      name: 'GET /company/queues/{queueId}/sessions/{sessionId} (private queue)',
      request: () => ({
        method: 'GET',
        url: `/api/company/queues/${ids.privateQueueId}/sessions/${ids.privateSessionId}`,
      }),
      expect: statuses(200, 200, 200, 200, 404, 200, 404, 404),
      codes: { 404: 'session_not_found' },
      secrets: () => ['Secret Ward'],
    },
    {
      name: 'GET /queues/sessions (mine today)',
      request: () => ({ method: 'GET', url: '/api/queues/sessions' }),
      expect: statuses(200, 200, 200, 200, 200, 200, 200, 401),
      check: (response, actor) => {
        const found = listed(response.body);
        if (actor === 'owner' || actor === 'admin') {
          expect(found).toEqual(expect.arrayContaining([ids.todayAssignedId, ids.todayOtherId]));
        } else if (actor === 'assigned') {
          expect(found).toEqual([ids.todayAssignedId]);
        } else {
          expect(found).toEqual([]);
        }
      },
    },
    {
      name: 'POST /queues/sessions/query',
      request: () => ({
        method: 'POST',
        url: '/api/queues/sessions/query',
        payload: { from: '2027-01-01', limit: 500 },
      }),
      expect: statuses(200, 200, 200, 200, 200, 200, 200, 200),
      check: (response, actor) => {
        const found = listed(response.body);
        expect(found).toContain(ids.session.id);
        // A private queue's sessions: its company's members and its approved requesters.
        expect(found.includes(ids.privateSessionId)).toBe(
          ['owner', 'admin', 'assigned', 'unassigned', 'requester'].includes(actor),
        );
      },
    },
    {
      name: 'GET /queues/sessions/{sessionId}/services',
      request: () => ({ method: 'GET', url: `/api/queues/sessions/${ids.session.id}/services` }),
      expect: statuses(200, 200, 200, 200, 200, 200, 200, 200),
    },
    {
      name: 'POST /queues/sessions/{sessionId}/services',
      request: async () => ({
        method: 'POST',
        url: `/api/queues/sessions/${(await freshSession()).id}/services`,
        payload: { serviceTypeId: ids.serviceTypeId, slotMinutes: 15, capacityPerSlot: 1 },
      }),
      expect: statuses(201, 201, 403, 403, 403, 403, 403, 401),
      snapshot: () =>
        database.db.select().from(slots).orderBy(slots.sessionServiceId, slots.slotNo),
    },
    {
      name: 'GET /queues/sessions/services/{serviceId}/slots',
      request: () => ({
        method: 'GET',
        url: `/api/queues/sessions/services/${ids.session.serviceId}/slots`,
      }),
      expect: statuses(200, 200, 200, 200, 200, 200, 200, 200),
    },
    {
      name: 'POST /queues/sessions/services/slots-status (assigned sub-queue)',
      request: async () => {
        const session = await freshSession({ subQueueId: ids.assignedSubQueueId, services: true });
        return {
          method: 'POST',
          url: '/api/queues/sessions/services/slots-status',
          payload: { serviceId: session.serviceId, slotNos: [1], status: 'blocked' },
        };
      },
      expect: statuses(200, 200, 200, 403, 403, 403, 403, 401),
      snapshot: () =>
        database.db
          .select()
          .from(slots)
          .where(eq(slots.status, 'blocked'))
          .orderBy(slots.sessionServiceId),
    },
    {
      name: 'POST /queues/sessions/services/slots-status (another sub-queue)',
      request: async () => {
        const session = await freshSession({ subQueueId: ids.otherSubQueueId, services: true });
        return {
          method: 'POST',
          url: '/api/queues/sessions/services/slots-status',
          payload: { serviceId: session.serviceId, slotNos: [1, 2], status: 'blocked' },
        };
      },
      expect: statuses(200, 200, 403, 403, 403, 403, 403, 401),
      snapshot: () =>
        database.db
          .select()
          .from(slots)
          .where(eq(slots.status, 'blocked'))
          .orderBy(slots.sessionServiceId),
    },
  ];

  authorizationMatrix(cases, () => world);

  // A hidden session answers exactly as one that does not exist, so ids do not leak.
  it.each([
    ['POST', '/api/queues/sessions/status', (id: string) => ({ sessionId: id, status: 'open' })],
    [
      'POST',
      '/api/queues/sessions/edit',
      (id: string) => ({ sessionId: id, changes: { notes: 'x' } }),
    ],
    ['GET', '/api/queues/sessions/:id/services', undefined],
    ['GET', '/api/queues/sessions/:id/board', undefined],
    ['POST', '/api/queues/sessions/tokens', (id: string) => ({ sessionId: id })],
    ['POST', '/api/queues/sessions/next-token', (id: string) => ({ sessionId: id })],
  ] as const)(
    '%s %s: a hidden session and a missing one answer alike',
    async (method, path, body) => {
      const answer = async (id: string) => {
        const response = await t.app.inject({
          method,
          url: path.replace(':id', id),
          headers: world.users.visitor.headers,
          ...(body ? { payload: body(id) } : {}),
        });
        return { status: response.statusCode, body: response.json() };
      };
      const hidden = await answer(ids.privateSessionId);
      expect(hidden.status).toBe(404);
      expect(await answer(crypto.randomUUID())).toEqual(hidden);
    },
  );
});
