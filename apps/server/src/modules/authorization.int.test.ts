import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  clientPromotions,
  companies,
  companyUsers,
  joinRequests,
  queues,
  serviceAreas,
  serviceTypes,
  subQueueStaff,
  subQueues,
} from '../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../test/app.ts';
import {
  authorizationMatrix,
  createMatrixWorld,
  type MatrixCase,
  type MatrixWorld,
  statuses,
} from '../test/authorization.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../test/database.ts';
import { createTestUser } from '../test/users.ts';

type Ids = {
  publicQueue: { id: string; joinCode: string };
  privateQueue: { id: string; joinCode: string; name: string };
  subQueueId: string;
  privateSubQueueId: string;
  serviceTypeId: string;
  serviceAreaId: string;
  promotionId: string;
};

describe.each(testDrivers)('authorisation matrix of the provider workspace (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let world: MatrixWorld;
  let ids: Ids;

  const asOwner = async (method: 'POST' | 'PATCH', url: string, payload: object) => {
    const response = await t.app.inject({
      method,
      url,
      headers: world.users.owner.headers,
      payload,
    });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.body}`);
    return response.json().data;
  };
  const freshQueue = (visibility = 'public') =>
    asOwner('POST', '/api/company/queues', {
      companyId: world.companyId,
      name: `Fresh ${visibility}`,
      visibility,
    });
  const freshMember = async (role: 'admin' | 'staff' = 'staff') => {
    const user = await createTestUser(t);
    await t.database.db.insert(companyUsers).values({
      companyId: world.companyId,
      userId: user.userId,
      email: user.email,
      role,
      status: 'active',
    });
    return user;
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database);
    world = await createMatrixWorld(t);
    const publicQueue = await freshQueue('public');
    const privateQueue = await asOwner('POST', '/api/company/queues', {
      companyId: world.companyId,
      name: 'Secret Ward',
      visibility: 'private',
    });
    await world.approveRequester(privateQueue.id);
    await freshQueue('unlisted');
    const subQueue = await asOwner('POST', `/api/queues/${publicQueue.id}/sub-queues`, {
      name: 'Counter 1',
      staffUserIds: [world.users.assigned.userId],
    });
    const privateSubQueue = await asOwner('POST', `/api/queues/${privateQueue.id}/sub-queues`, {
      name: 'Hidden room',
    });
    const serviceType = await asOwner('POST', `/api/queues/${publicQueue.id}/service-types`, {
      name: 'Check-up',
      durationMinutes: 15,
    });
    const serviceArea = await asOwner('POST', `/api/queues/${publicQueue.id}/service-areas`, {
      name: 'Main branch',
    });
    const promotion = await asOwner('POST', '/api/queues/client-promotions', {
      companyId: world.companyId,
      title: 'Spring',
      discountPercent: 10,
    });
    ids = {
      publicQueue,
      privateQueue,
      subQueueId: subQueue.id,
      privateSubQueueId: privateSubQueue.id,
      serviceTypeId: serviceType.id,
      serviceAreaId: serviceArea.id,
      promotionId: promotion.id,
    };
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  const company = () => world.companyId;
  const hiddenQueue = () => [ids.privateQueue.name, ids.privateQueue.joinCode];
  const managersOnly = (ok: number) => statuses(ok, ok, 403, 403, 403, 403, 403, 401);
  const everyone = statuses(200, 200, 200, 200, 200, 200, 200, 200);
  // A private queue is known to its company's members and its approved requesters only.
  const membersOrHidden = statuses(200, 200, 200, 200, 404, 200, 404, 404);
  const hiddenCodes = { 404: 'not_found' };
  const hiddenWrite = statuses(200, 200, 403, 403, 404, 403, 404, 401);

  const cases: MatrixCase[] = [
    // Companies and members ----------------------------------------------------------------
    {
      name: 'POST /company',
      request: () => ({
        method: 'POST',
        url: '/api/company',
        payload: { name: 'New Co', timezone: 'Europe/London' },
      }),
      expect: statuses(201, 201, 201, 201, 201, 201, 201, 401),
      snapshot: async () => (await database.db.select().from(companies)).length,
    },
    {
      name: 'GET /company/{id}',
      request: () => ({ method: 'GET', url: `/api/company/${company()}` }),
      expect: statuses(200, 200, 200, 200, 403, 403, 403, 401),
      secrets: () => ['Matrix Clinic'],
    },
    {
      name: 'PATCH /company/{id}',
      request: () => ({
        method: 'PATCH',
        url: `/api/company/${company()}`,
        payload: { contactPhone: '+44 20 7946 0001' },
      }),
      expect: managersOnly(200),
      snapshot: () => database.db.select().from(companies).where(eq(companies.id, world.companyId)),
      secrets: () => ['Matrix Clinic'],
    },
    {
      name: 'GET /company/{companyId}/billing',
      request: () => ({ method: 'GET', url: `/api/company/${company()}/billing` }),
      expect: managersOnly(200),
      secrets: () => ['"usage"'],
    },
    {
      name: 'GET /company/{companyId}/reports',
      request: () => ({
        method: 'GET',
        url: `/api/company/${company()}/reports?from=2031-06-01&to=2031-06-30&granularity=week`,
      }),
      // Every member reads the company's reports; nobody else learns its queues.
      expect: statuses(200, 200, 200, 200, 403, 403, 403, 401),
      secrets: () => [ids.publicQueue.id, ids.privateQueue.name],
    },
    {
      name: 'GET /company/{id}/users',
      request: () => ({ method: 'GET', url: `/api/company/${company()}/users` }),
      expect: managersOnly(200),
      secrets: () => [world.users.owner.email, world.users.assigned.email],
    },
    {
      name: 'POST /company/{id}/users',
      request: () => ({
        method: 'POST',
        url: `/api/company/${company()}/users`,
        payload: {
          email: `invitee-${crypto.randomUUID().slice(0, 8)}@example.test`,
          role: 'staff',
        },
      }),
      expect: managersOnly(201),
      snapshot: () => database.db.select().from(companyUsers),
    },
    {
      name: 'PATCH /company/{id}/users/{userId}',
      request: async () => ({
        method: 'PATCH',
        url: `/api/company/${company()}/users/${(await freshMember()).userId}`,
        payload: { role: 'admin' },
      }),
      expect: managersOnly(200),
      snapshot: () => database.db.select().from(companyUsers),
    },
    {
      name: 'DELETE /company/{id}/users/{userId}',
      request: async () => ({
        method: 'DELETE',
        url: `/api/company/${company()}/users/${(await freshMember()).userId}`,
      }),
      expect: managersOnly(200),
      snapshot: async () => (await database.db.select().from(companyUsers)).length,
    },
    // Users --------------------------------------------------------------------------------
    {
      name: 'GET /user/user-data (own)',
      request: (w, actor) => ({
        method: 'GET',
        url:
          actor === 'anonymous'
            ? '/api/user/user-data'
            : `/api/user/user-data?userId=${encodeURIComponent(w.users[actor].email)}`,
      }),
      expect: statuses(200, 200, 200, 200, 200, 200, 200, 401),
      check: (response, actor, w) => {
        if (actor !== 'anonymous') expect(response.json().data.userId).toBe(w.users[actor].userId);
      },
    },
    {
      name: "GET /user/user-data (a staff member's)",
      request: (w) => ({
        method: 'GET',
        url: `/api/user/user-data?userId=${encodeURIComponent(w.users.assigned.email)}`,
      }),
      // Only its owner (here `assigned`) and the company's managers read a roles record.
      expect: statuses(200, 200, 200, 403, 403, 403, 403, 401),
      secrets: (w) => [w.users.assigned.userId],
    },
    {
      name: 'PATCH /user/profile',
      request: () => ({
        method: 'PATCH',
        url: '/api/user/profile',
        payload: { displayName: 'Me' },
      }),
      expect: statuses(200, 200, 200, 200, 200, 200, 200, 401),
    },
    // Queues -------------------------------------------------------------------------------
    {
      name: 'GET /company/queues',
      request: () => ({ method: 'GET', url: `/api/company/queues?companyId=${company()}` }),
      expect: everyone,
      check: (response, actor) => {
        const visibilities = response.json().data.map((q: { visibility: string }) => q.visibility);
        if (['owner', 'admin', 'assigned', 'unassigned'].includes(actor)) {
          expect(visibilities).toContain('private');
        } else if (actor === 'requester') {
          // An approved requester finds the private queue beside the public ones.
          expect(new Set(visibilities)).toEqual(new Set(['public', 'private']));
        } else {
          expect(new Set(visibilities)).toEqual(new Set(['public']));
          expect(response.body).not.toContain(ids.privateQueue.joinCode);
        }
      },
    },
    {
      name: 'POST /company/queues',
      request: () => ({
        method: 'POST',
        url: '/api/company/queues',
        payload: { companyId: company(), name: 'Another' },
      }),
      expect: managersOnly(201),
      snapshot: async () => (await database.db.select().from(queues)).length,
    },
    {
      name: 'GET /company/queues/{queueId} (public)',
      request: () => ({ method: 'GET', url: `/api/company/queues/${ids.publicQueue.id}` }),
      expect: everyone,
    },
    {
      name: 'GET /company/queues/{queueId} (private)',
      request: () => ({ method: 'GET', url: `/api/company/queues/${ids.privateQueue.id}` }),
      expect: membersOrHidden,
      codes: hiddenCodes,
      secrets: hiddenQueue,
    },
    {
      name: 'PATCH /company/queues/{queueId} (public)',
      request: () => ({
        method: 'PATCH',
        url: `/api/company/queues/${ids.publicQueue.id}`,
        payload: { description: 'changed' },
      }),
      expect: managersOnly(200),
      snapshot: () => database.db.select().from(queues).where(eq(queues.id, ids.publicQueue.id)),
    },
    {
      name: 'PATCH /company/queues/{queueId} (private)',
      request: () => ({
        method: 'PATCH',
        url: `/api/company/queues/${ids.privateQueue.id}`,
        payload: { description: 'changed' },
      }),
      expect: hiddenWrite,
      codes: hiddenCodes,
      snapshot: () => database.db.select().from(queues).where(eq(queues.id, ids.privateQueue.id)),
      secrets: hiddenQueue,
    },
    {
      name: 'DELETE /company/queues/{queueId}',
      request: async () => ({
        method: 'DELETE',
        url: `/api/company/queues/${(await freshQueue()).id}`,
      }),
      expect: managersOnly(200),
      snapshot: async () =>
        (await database.db.select().from(queues).where(eq(queues.status, 'archived'))).length,
    },
    {
      name: 'GET /queues/by-code/{code} (public)',
      request: () => ({ method: 'GET', url: `/api/queues/by-code/${ids.publicQueue.joinCode}` }),
      expect: everyone,
    },
    {
      name: 'GET /queues/by-code/{code} (private)',
      request: () => ({ method: 'GET', url: `/api/queues/by-code/${ids.privateQueue.joinCode}` }),
      expect: statuses(200, 200, 200, 200, 403, 200, 403, 403),
      codes: { 403: 'join_request_required' },
      check: (response) => expect(response.json().data.visibility).toBe('private'),
    },
    // Sub-queues ---------------------------------------------------------------------------
    {
      name: 'GET /queues/{queueId}/sub-queues',
      request: () => ({ method: 'GET', url: `/api/queues/${ids.publicQueue.id}/sub-queues` }),
      expect: everyone,
      check: (response, actor, w) => {
        const members = ['owner', 'admin', 'assigned', 'unassigned'].includes(actor);
        expect(response.body.includes(w.users.assigned.userId)).toBe(members);
      },
    },
    {
      name: 'GET /queues/{queueId}/sub-queues (private queue)',
      request: () => ({ method: 'GET', url: `/api/queues/${ids.privateQueue.id}/sub-queues` }),
      expect: membersOrHidden,
      codes: hiddenCodes,
      secrets: () => ['Hidden room', ...hiddenQueue()],
    },
    {
      name: 'POST /queues/{queueId}/sub-queues',
      request: () => ({
        method: 'POST',
        url: `/api/queues/${ids.publicQueue.id}/sub-queues`,
        payload: { name: 'Counter X' },
      }),
      expect: managersOnly(201),
      snapshot: async () => (await database.db.select().from(subQueues)).length,
    },
    {
      name: 'GET /queues/{queueId}/sub-queues/{id}',
      request: () => ({
        method: 'GET',
        url: `/api/queues/${ids.publicQueue.id}/sub-queues/${ids.subQueueId}`,
      }),
      expect: everyone,
    },
    {
      name: 'GET /queues/{queueId}/sub-queues/{id} (private queue)',
      request: () => ({
        method: 'GET',
        url: `/api/queues/${ids.privateQueue.id}/sub-queues/${ids.privateSubQueueId}`,
      }),
      expect: membersOrHidden,
      codes: hiddenCodes,
      secrets: () => ['Hidden room'],
    },
    {
      name: 'PATCH /queues/{queueId}/sub-queues/{id}',
      request: () => ({
        method: 'PATCH',
        url: `/api/queues/${ids.publicQueue.id}/sub-queues/${ids.subQueueId}`,
        payload: { staffUserIds: [world.users.assigned.userId, world.users.admin.userId] },
      }),
      expect: managersOnly(200),
      snapshot: async () => [
        await database.db.select().from(subQueues),
        await database.db.select().from(subQueueStaff),
      ],
    },
    {
      name: 'DELETE /queues/{queueId}/sub-queues/{id}',
      request: async () => {
        const sq = await asOwner('POST', `/api/queues/${ids.publicQueue.id}/sub-queues`, {
          name: 'Temp',
        });
        return { method: 'DELETE', url: `/api/queues/${ids.publicQueue.id}/sub-queues/${sq.id}` };
      },
      expect: managersOnly(200),
      snapshot: async () => (await database.db.select().from(subQueues)).length,
    },
    // Service types ------------------------------------------------------------------------
    {
      name: 'GET /queues/{queueId}/service-types',
      request: () => ({ method: 'GET', url: `/api/queues/${ids.publicQueue.id}/service-types` }),
      expect: everyone,
    },
    {
      name: 'GET /queues/{queueId}/service-types (private queue)',
      request: () => ({ method: 'GET', url: `/api/queues/${ids.privateQueue.id}/service-types` }),
      expect: membersOrHidden,
      codes: hiddenCodes,
      secrets: hiddenQueue,
    },
    {
      name: 'POST /queues/{queueId}/service-types',
      request: () => ({
        method: 'POST',
        url: `/api/queues/${ids.publicQueue.id}/service-types`,
        payload: { name: 'X-ray', durationMinutes: 20 },
      }),
      expect: managersOnly(201),
      snapshot: async () => (await database.db.select().from(serviceTypes)).length,
    },
    {
      name: 'GET /queues/{queueId}/service-types/{id}',
      request: () => ({
        method: 'GET',
        url: `/api/queues/${ids.publicQueue.id}/service-types/${ids.serviceTypeId}`,
      }),
      expect: everyone,
    },
    {
      name: 'PATCH /queues/{queueId}/service-types/{id}',
      request: () => ({
        method: 'PATCH',
        url: `/api/queues/${ids.publicQueue.id}/service-types/${ids.serviceTypeId}`,
        payload: { durationMinutes: 25 },
      }),
      expect: managersOnly(200),
      snapshot: () => database.db.select().from(serviceTypes),
    },
    {
      name: 'DELETE /queues/{queueId}/service-types/{id}',
      request: async () => {
        const st = await asOwner('POST', `/api/queues/${ids.publicQueue.id}/service-types`, {
          name: 'Temp',
          durationMinutes: 5,
        });
        return {
          method: 'DELETE',
          url: `/api/queues/${ids.publicQueue.id}/service-types/${st.id}`,
        };
      },
      expect: managersOnly(200),
      snapshot: async () => (await database.db.select().from(serviceTypes)).length,
    },
    // Service areas ------------------------------------------------------------------------
    {
      name: 'GET /queues/{queueId}/service-areas',
      request: () => ({ method: 'GET', url: `/api/queues/${ids.publicQueue.id}/service-areas` }),
      expect: everyone,
    },
    {
      name: 'GET /queues/{queueId}/service-areas (private queue)',
      request: () => ({ method: 'GET', url: `/api/queues/${ids.privateQueue.id}/service-areas` }),
      expect: membersOrHidden,
      codes: hiddenCodes,
      secrets: hiddenQueue,
    },
    {
      name: 'POST /queues/{queueId}/service-areas',
      request: () => ({
        method: 'POST',
        url: `/api/queues/${ids.publicQueue.id}/service-areas`,
        payload: { name: 'North branch', latitude: 51.5, longitude: -0.1 },
      }),
      expect: managersOnly(201),
      snapshot: async () => (await database.db.select().from(serviceAreas)).length,
    },
    {
      name: 'GET /queues/{queueId}/service-areas/{id}',
      request: () => ({
        method: 'GET',
        url: `/api/queues/${ids.publicQueue.id}/service-areas/${ids.serviceAreaId}`,
      }),
      expect: everyone,
    },
    {
      name: 'PATCH /queues/{queueId}/service-areas/{id}',
      request: () => ({
        method: 'PATCH',
        url: `/api/queues/${ids.publicQueue.id}/service-areas/${ids.serviceAreaId}`,
        payload: { city: 'Leeds' },
      }),
      expect: managersOnly(200),
      snapshot: () => database.db.select().from(serviceAreas),
    },
    {
      name: 'DELETE /queues/{queueId}/service-areas/{id}',
      request: async () => {
        const sa = await asOwner('POST', `/api/queues/${ids.publicQueue.id}/service-areas`, {
          name: 'Temp',
        });
        return {
          method: 'DELETE',
          url: `/api/queues/${ids.publicQueue.id}/service-areas/${sa.id}`,
        };
      },
      expect: managersOnly(200),
      snapshot: async () => (await database.db.select().from(serviceAreas)).length,
    },
    // Client promotions ----------------------------------------------------------------------
    {
      name: 'GET /queues/client-promotions (current)',
      request: () => ({
        method: 'GET',
        url: `/api/queues/client-promotions?companyId=${company()}`,
      }),
      expect: everyone,
    },
    {
      name: 'GET /queues/client-promotions?scope=all',
      request: () => ({
        method: 'GET',
        url: `/api/queues/client-promotions?companyId=${company()}&scope=all`,
      }),
      expect: managersOnly(200),
    },
    {
      name: 'POST /queues/client-promotions',
      request: () => ({
        method: 'POST',
        url: '/api/queues/client-promotions',
        payload: { companyId: company(), title: 'Summer', discountPercent: 5 },
      }),
      expect: managersOnly(201),
      snapshot: async () => (await database.db.select().from(clientPromotions)).length,
    },
    {
      name: 'PATCH /queues/client-promotions/{id}',
      request: () => ({
        method: 'PATCH',
        url: `/api/queues/client-promotions/${ids.promotionId}`,
        payload: { discountPercent: 15 },
      }),
      expect: managersOnly(200),
      snapshot: () => database.db.select().from(clientPromotions),
    },
    {
      name: 'DELETE /queues/client-promotions/{id}',
      request: async () => {
        const p = await asOwner('POST', '/api/queues/client-promotions', {
          companyId: world.companyId,
          title: 'Temp',
          discountPercent: 1,
        });
        return { method: 'DELETE', url: `/api/queues/client-promotions/${p.id}` };
      },
      expect: managersOnly(200),
      snapshot: async () => (await database.db.select().from(clientPromotions)).length,
    },
    // Join requests ------------------------------------------------------------------------
    {
      name: 'POST /queues/requests',
      request: () => ({
        method: 'POST',
        url: '/api/queues/requests',
        payload: { queueId: ids.privateQueue.id, message: 'Please' },
      }),
      // Members need no request; an approved requester gets their request back.
      expect: statuses(409, 409, 409, 409, 201, 200, 201, 401),
      codes: { 409: 'join_request_not_needed' },
      snapshot: () => database.db.select().from(joinRequests),
    },
    {
      name: "GET /queues/requests?queueId= (a queue's)",
      request: () => ({
        method: 'GET',
        url: `/api/queues/requests?queueId=${ids.privateQueue.id}`,
      }),
      expect: managersOnly(200),
      secrets: (w) => [w.users.visitor.email],
    },
    {
      name: 'GET /queues/requests (own)',
      request: () => ({ method: 'GET', url: '/api/queues/requests' }),
      expect: statuses(200, 200, 200, 200, 200, 200, 200, 401),
      check: (response, actor, w) => {
        for (const r of response.json().data) {
          expect(r.userId).toBe(w.users[actor as 'visitor'].userId);
        }
      },
    },
    {
      name: 'PATCH /queues/requests/{id}',
      request: async () => {
        const requester = await createTestUser(t);
        const created = await t.app.inject({
          method: 'POST',
          url: '/api/queues/requests',
          headers: requester.headers,
          payload: { queueId: ids.privateQueue.id },
        });
        return {
          method: 'PATCH',
          url: `/api/queues/requests/${created.json().data.id}`,
          payload: { status: 'approved' },
        };
      },
      expect: managersOnly(200),
      snapshot: () => database.db.select().from(joinRequests),
    },
    {
      name: 'DELETE /queues/requests/{id}',
      request: async (w) => {
        const queue = await freshQueue('private');
        const created = await t.app.inject({
          method: 'POST',
          url: '/api/queues/requests',
          headers: w.users.visitor.headers,
          payload: { queueId: queue.id },
        });
        return { method: 'DELETE', url: `/api/queues/requests/${created.json().data.id}` };
      },
      expect: statuses(404, 404, 404, 404, 404, 404, 200, 401),
      codes: { 404: 'not_found' },
      snapshot: () => database.db.select().from(joinRequests),
    },
  ];

  authorizationMatrix(cases, () => world);
});
