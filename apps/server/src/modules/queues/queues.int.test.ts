import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, companyUsers } from '../../db/schema/companies.ts';
import { queues, serviceTypes, subQueueStaff } from '../../db/schema/queues.ts';
import { sessionServices, sessions } from '../../db/schema/sessions.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';
import { newJoinCode } from './queues.service.ts';

describe('join codes', () => {
  it('are 6 unambiguous capitals or digits', () => {
    for (let i = 0; i < 50; i += 1) expect(newJoinCode()).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
  });
});

describe.each(testDrivers)('queues, sub-queues, service types and areas (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let owner: TestUser;
  let staff: TestUser;
  let visitor: TestUser;
  let companyId: string;

  const inject = (
    user: TestUser | undefined,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      headers: user?.headers ?? {},
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database);
    owner = await createTestUser(t);
    staff = await createTestUser(t);
    visitor = await createTestUser(t);
    companyId = (
      await inject(owner, 'POST', '/company', { name: 'Q Clinic', timezone: 'Europe/London' })
    ).json().data.id;
    // Queue rules, not plan limits (modules/billing tests those): a plan with room.
    await database.db
      .update(companies)
      .set({ plan: 'business' })
      .where(eq(companies.id, companyId));
    await database.db.insert(companyUsers).values({
      companyId,
      userId: staff.userId,
      email: staff.email,
      role: 'staff',
      status: 'active',
    });
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  it('creates a queue with defaults and a unique join code, and finds it by code in any case', async () => {
    const created = await inject(owner, 'POST', '/company/queues', {
      companyId,
      name: 'General',
      tokenPrefix: 'A',
      priceMinor: 500,
      currency: 'GBP',
    });
    expect(created.statusCode).toBe(201);
    const queue = created.json().data;
    expect(queue).toMatchObject({
      mode: 'walk_in',
      visibility: 'public',
      status: 'active',
      tokensPerVisitor: 1,
      turnApproachingThreshold: 3,
      priceMinor: 500,
      currency: 'GBP',
      company: { id: companyId, name: 'Q Clinic' },
    });
    expect(queue.joinCode).toMatch(/^[A-Z0-9]{6}$/);
    const byCode = await inject(
      undefined,
      'GET',
      `/queues/by-code/${queue.joinCode.toLowerCase()}`,
    );
    expect(byCode.statusCode).toBe(200);
    expect(byCode.json().data.id).toBe(queue.id);
    const unknown = await inject(undefined, 'GET', '/queues/by-code/ZZZZ99');
    expect(unknown.json().error.code).toBe('not_found');
    const malformed = await inject(undefined, 'GET', '/queues/by-code/a!');
    expect(malformed.json().error.details.issues[0].field).toBe('params.code');
  });

  it('refuses a price without a currency (create and update), naming the field, changing nothing', async () => {
    const before = (await database.db.select().from(queues)).length;
    const response = await inject(owner, 'POST', '/company/queues', {
      companyId,
      name: 'Paid',
      priceMinor: 100,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.issues[0].field).toBe('body.currency');
    expect((await database.db.select().from(queues)).length).toBe(before);

    const free = (
      await inject(owner, 'POST', '/company/queues', { companyId, name: 'Free' })
    ).json().data;
    const patch = await inject(owner, 'PATCH', `/company/queues/${free.id}`, { priceMinor: 100 });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().error.code).toBe('validation_failed');
    const [row] = await database.db.select().from(queues).where(eq(queues.id, free.id));
    expect(row?.priceMinor).toBeNull();
    const bad = await inject(owner, 'PATCH', `/company/queues/${free.id}`, { tokensPerVisitor: 0 });
    expect(bad.json().error.details.issues[0].field).toBe('body.tokensPerVisitor');
  });

  it('archives, hides archived queues from visitors, restores, and issues a new join code', async () => {
    const queue = (
      await inject(owner, 'POST', '/company/queues', { companyId, name: 'Temp' })
    ).json().data;
    const archived = await inject(owner, 'DELETE', `/company/queues/${queue.id}`);
    expect(archived.json().data.status).toBe('archived');
    expect((await inject(visitor, 'GET', `/company/queues/${queue.id}`)).statusCode).toBe(404);
    expect((await inject(visitor, 'GET', `/queues/by-code/${queue.joinCode}`)).statusCode).toBe(
      404,
    );
    const list = await inject(undefined, 'GET', `/company/queues?companyId=${companyId}`);
    expect(list.json().data.map((q: { id: string }) => q.id)).not.toContain(queue.id);
    const memberList = await inject(
      staff,
      'GET',
      `/company/queues?companyId=${companyId}&status=archived`,
    );
    expect(memberList.json().data.map((q: { id: string }) => q.id)).toEqual([queue.id]);

    const restored = await inject(owner, 'PATCH', `/company/queues/${queue.id}`, {
      status: 'active',
      regenerateJoinCode: true,
    });
    expect(restored.json().data.status).toBe('active');
    expect(restored.json().data.joinCode).not.toBe(queue.joinCode);
    expect((await inject(visitor, 'GET', `/queues/by-code/${queue.joinCode}`)).statusCode).toBe(
      404,
    );
  });

  it('lists queues only for a valid companyId', async () => {
    const response = await inject(owner, 'GET', '/company/queues');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.issues[0].field).toBe('querystring.companyId');
  });

  it('private queues: join_request_required by code, then readable once the request is approved', async () => {
    const queue = (
      await inject(owner, 'POST', '/company/queues', {
        companyId,
        name: 'VIP',
        visibility: 'private',
      })
    ).json().data;
    const byCode = await inject(visitor, 'GET', `/queues/by-code/${queue.joinCode}`);
    expect(byCode.statusCode).toBe(403);
    expect(byCode.json().error).toMatchObject({
      code: 'join_request_required',
      details: { queueId: queue.id, queueName: 'VIP' },
    });
    expect((await inject(visitor, 'GET', `/company/queues/${queue.id}`)).statusCode).toBe(404);

    const asked = await inject(visitor, 'POST', '/queues/requests', {
      queueId: queue.id,
      message: 'I am a patient',
    });
    expect(asked.statusCode).toBe(201);
    const request = asked.json().data;
    expect(request).toMatchObject({ status: 'pending', email: visitor.email, queueName: 'VIP' });
    const twice = await inject(visitor, 'POST', '/queues/requests', { queueId: queue.id });
    expect(twice.statusCode).toBe(200);
    expect(twice.json().data.id).toBe(request.id);

    const pending = await inject(
      owner,
      'GET',
      `/queues/requests?queueId=${queue.id}&status=pending`,
    );
    expect(pending.json().data.map((r: { id: string }) => r.id)).toEqual([request.id]);
    const mine = await inject(visitor, 'GET', '/queues/requests');
    expect(mine.json().data.map((r: { id: string }) => r.id)).toEqual([request.id]);

    const approved = await inject(owner, 'PATCH', `/queues/requests/${request.id}`, {
      status: 'approved',
    });
    expect(approved.json().data).toMatchObject({ status: 'approved', decidedBy: owner.userId });
    expect((await inject(visitor, 'GET', `/company/queues/${queue.id}`)).statusCode).toBe(200);
    expect((await inject(visitor, 'GET', `/queues/by-code/${queue.joinCode}`)).statusCode).toBe(
      200,
    );

    // Rejecting later revokes access; asking again reopens the request.
    await inject(owner, 'PATCH', `/queues/requests/${request.id}`, { status: 'rejected' });
    expect((await inject(visitor, 'GET', `/company/queues/${queue.id}`)).statusCode).toBe(404);
    const reopened = await inject(visitor, 'POST', '/queues/requests', { queueId: queue.id });
    expect(reopened.json().data).toMatchObject({
      id: request.id,
      status: 'pending',
      decidedBy: null,
    });

    const publicQueue = (
      await inject(owner, 'POST', '/company/queues', { companyId, name: 'Open' })
    ).json().data;
    const needless = await inject(visitor, 'POST', '/queues/requests', { queueId: publicQueue.id });
    expect(needless.json().error.code).toBe('join_request_not_needed');
  });

  it('sub-queues carry assigned staff, members only, replaced as a whole', async () => {
    const queue = (
      await inject(owner, 'POST', '/company/queues', { companyId, name: 'Desk' })
    ).json().data;
    const refused = await inject(owner, 'POST', `/queues/${queue.id}/sub-queues`, {
      name: 'Counter 1',
      staffUserIds: [staff.userId, visitor.userId],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details.issues[0].field).toBe('body.staffUserIds');
    expect(await database.db.select().from(subQueueStaff)).toHaveLength(0);

    const created = await inject(owner, 'POST', `/queues/${queue.id}/sub-queues`, {
      name: 'Counter 1',
      staffUserIds: [staff.userId, staff.userId],
    });
    expect(created.statusCode).toBe(201);
    const subQueue = created.json().data;
    expect(subQueue.staffUserIds).toEqual([staff.userId]);
    const updated = await inject(owner, 'PATCH', `/queues/${queue.id}/sub-queues/${subQueue.id}`, {
      staffUserIds: [owner.userId],
    });
    expect(updated.json().data.staffUserIds).toEqual([owner.userId]);
    const visitorView = await inject(undefined, 'GET', `/queues/${queue.id}/sub-queues`);
    expect(visitorView.json().data[0]).toMatchObject({ name: 'Counter 1', staffUserIds: [] });
    // Another queue's id in the path does not reach this sub-queue.
    const other = (
      await inject(owner, 'POST', '/company/queues', { companyId, name: 'Other' })
    ).json().data;
    const crossed = await inject(owner, 'DELETE', `/queues/${other.id}/sub-queues/${subQueue.id}`);
    expect(crossed.statusCode).toBe(404);
    expect(
      (await inject(owner, 'DELETE', `/queues/${queue.id}/sub-queues/${subQueue.id}`)).statusCode,
    ).toBe(200);
    expect(await database.db.select().from(subQueueStaff)).toHaveLength(0);
  });

  it('service types: visitors see active ones; validation names the field', async () => {
    const queue = (
      await inject(owner, 'POST', '/company/queues', { companyId, name: 'Lab' })
    ).json().data;
    const bad = await inject(owner, 'POST', `/queues/${queue.id}/service-types`, {
      name: 'Too long',
      durationMinutes: 2000,
    });
    expect(bad.json().error.details.issues[0].field).toBe('body.durationMinutes');
    const active = (
      await inject(owner, 'POST', `/queues/${queue.id}/service-types`, {
        name: 'Blood',
        durationMinutes: 10,
      })
    ).json().data;
    const inactive = (
      await inject(owner, 'POST', `/queues/${queue.id}/service-types`, {
        name: 'Retired',
        durationMinutes: 10,
        active: false,
      })
    ).json().data;
    const visitorList = await inject(undefined, 'GET', `/queues/${queue.id}/service-types`);
    expect(visitorList.json().data.map((s: { id: string }) => s.id)).toEqual([active.id]);
    expect(
      (await inject(undefined, 'GET', `/queues/${queue.id}/service-types/${inactive.id}`))
        .statusCode,
    ).toBe(404);
    const memberList = await inject(staff, 'GET', `/queues/${queue.id}/service-types`);
    expect(memberList.json().data).toHaveLength(2);
    const patched = await inject(owner, 'PATCH', `/queues/${queue.id}/service-types/${active.id}`, {
      priceMinor: 1500,
    });
    expect(patched.json().data.priceMinor).toBe(1500);
  });

  it('service areas: coordinates are checked; CRUD works', async () => {
    const queue = (
      await inject(owner, 'POST', '/company/queues', { companyId, name: 'Branches' })
    ).json().data;
    const bad = await inject(owner, 'POST', `/queues/${queue.id}/service-areas`, {
      name: 'Pole',
      latitude: 91,
    });
    expect(bad.json().error.details.issues[0].field).toBe('body.latitude');
    const area = (
      await inject(owner, 'POST', `/queues/${queue.id}/service-areas`, {
        name: 'Central',
        city: 'Colombo',
        latitude: 6.9,
        longitude: 79.86,
      })
    ).json().data;
    expect(area).toMatchObject({ name: 'Central', city: 'Colombo', phone: null, notes: '' });
    const changed = await inject(owner, 'PATCH', `/queues/${queue.id}/service-areas/${area.id}`, {
      phone: '+94 11 234 5678',
    });
    // Phones are stored in E.164 (packages/contract/src/phone.ts).
    expect(changed.json().data.phone).toBe('+94112345678');
    const badPhone = await inject(owner, 'PATCH', `/queues/${queue.id}/service-areas/${area.id}`, {
      phone: '11 000',
    });
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.json().error).toMatchObject({
      code: 'invalid_phone',
      details: { field: 'body.phone' },
    });
    const kept = await inject(owner, 'GET', `/queues/${queue.id}/service-areas/${area.id}`);
    expect(kept.json().data.phone).toBe('+94112345678');
    expect(
      (await inject(owner, 'DELETE', `/queues/${queue.id}/service-areas/${area.id}`)).statusCode,
    ).toBe(200);
    expect(
      (await inject(owner, 'GET', `/queues/${queue.id}/service-areas/${area.id}`)).statusCode,
    ).toBe(404);
  });

  // Every part of a queue is one shape: scoped to its queue, managed by owners and admins.
  it.each([
    ['sub-queues', { name: 'Counter 9' }],
    ['service-types', { name: 'Check-up', durationMinutes: 20 }],
    ['service-areas', { name: 'North wing' }],
  ])('%s: reached only through their own queue, written only by managers', async (part, body) => {
    const [mine, other] = await Promise.all(
      ['Own', 'Neighbour'].map(
        async (name) =>
          (await inject(owner, 'POST', '/company/queues', { companyId, name })).json().data,
      ),
    );
    const item = (await inject(owner, 'POST', `/queues/${mine.id}/${part}`, body)).json().data;
    expect(item).toMatchObject({ ...body, queueId: mine.id });

    for (const [method, payload] of [
      ['GET', undefined],
      ['PATCH', { name: 'Moved' }],
      ['DELETE', undefined],
    ] as const) {
      const crossed = await inject(
        owner,
        method,
        `/queues/${other.id}/${part}/${item.id}`,
        payload,
      );
      expect(crossed.statusCode).toBe(404);
      expect(crossed.json().error.code).toBe('not_found');
    }
    const refused = await inject(staff, 'PATCH', `/queues/${mine.id}/${part}/${item.id}`, {
      name: 'Renamed by staff',
    });
    expect(refused.json().error.code).toBe('forbidden');
    const empty = await inject(owner, 'PATCH', `/queues/${mine.id}/${part}/${item.id}`, {});
    expect(empty.json().error.code).toBe('validation_failed');
    const unchanged = await inject(owner, 'GET', `/queues/${mine.id}/${part}/${item.id}`);
    expect(unchanged.json().data).toEqual(item);
  });

  it('service types that sessions offer are in_use and stay; deactivating them works', async () => {
    const queue = (
      await inject(owner, 'POST', '/company/queues', { companyId, name: 'Offered' })
    ).json().data;
    const type = (
      await inject(owner, 'POST', `/queues/${queue.id}/service-types`, {
        name: 'Consultation',
        durationMinutes: 15,
      })
    ).json().data;
    const [session] = await database.db
      .insert(sessions)
      .values({
        queueId: queue.id,
        date: '2030-01-07',
        startTime: '09:00',
        endTime: '12:00',
        timezone: 'Europe/London',
        startsAt: new Date('2030-01-07T09:00:00Z'),
        endsAt: new Date('2030-01-07T12:00:00Z'),
        capacity: 10,
      })
      .returning({ id: sessions.id });
    await database.db.insert(sessionServices).values({
      sessionId: session?.id ?? '',
      serviceTypeId: type.id,
      slotMinutes: 15,
      capacityPerSlot: 1,
    });

    const refused = await inject(owner, 'DELETE', `/queues/${queue.id}/service-types/${type.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('in_use');
    expect(
      await database.db.select().from(serviceTypes).where(eq(serviceTypes.id, type.id)),
    ).toHaveLength(1);
    const retired = await inject(owner, 'PATCH', `/queues/${queue.id}/service-types/${type.id}`, {
      active: false,
    });
    expect(retired.json().data.active).toBe(false);
  });

  it('client promotions: current ones for visitors, all for managers, window checked', async () => {
    const privateQueue = (
      await inject(owner, 'POST', '/company/queues', {
        companyId,
        name: 'Hidden',
        visibility: 'private',
      })
    ).json().data;
    const create = (body: object) =>
      inject(owner, 'POST', '/queues/client-promotions', {
        companyId,
        discountPercent: 10,
        ...body,
      });
    const current = (await create({ title: 'Now' })).json().data;
    await create({ title: 'Off', active: false });
    await create({ title: 'Expired', validTo: '2000-01-01T00:00:00Z' });
    await create({ title: 'For hidden', queueId: privateQueue.id });
    const bad = await create({
      title: 'Backwards',
      validFrom: '2030-01-02T00:00:00Z',
      validTo: '2030-01-01T00:00:00Z',
    });
    expect(bad.json().error.details.issues[0].field).toBe('body.validTo');
    const foreign = await create({ title: 'Foreign', queueId: crypto.randomUUID() });
    expect(foreign.json().error.details.issues[0].field).toBe('body.queueId');

    const visible = await inject(
      undefined,
      'GET',
      `/queues/client-promotions?companyId=${companyId}`,
    );
    expect(visible.json().data.map((p: { title: string }) => p.title)).toEqual(['Now']);
    const all = await inject(
      owner,
      'GET',
      `/queues/client-promotions?companyId=${companyId}&scope=all`,
    );
    expect(all.json().data).toHaveLength(4);
    const patched = await inject(owner, 'PATCH', `/queues/client-promotions/${current.id}`, {
      validFrom: '2099-01-01T00:00:00Z',
    });
    expect(patched.statusCode).toBe(200);
    const later = await inject(
      undefined,
      'GET',
      `/queues/client-promotions?companyId=${companyId}`,
    );
    expect(later.json().data).toEqual([]);
  });
});
