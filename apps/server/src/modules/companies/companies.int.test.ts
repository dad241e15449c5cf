import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authDevMailbox, authUsers } from '../../db/schema/auth.ts';
import { companies, companyUsers, userProfiles } from '../../db/schema/companies.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';
import { slugify } from './companies.service.ts';

describe('slugify', () => {
  it('makes url-safe slugs', () => {
    expect(slugify('Harbourview Health Centre')).toBe('harbourview-health-centre');
    expect(slugify('  Café & Co. ')).toBe('cafe-co');
    expect(slugify('!!!')).toBe('company');
  });
});

describe.each(testDrivers)('companies and members (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let owner: TestUser;
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
  const membersOf = (id: string) =>
    database.db.select().from(companyUsers).where(eq(companyUsers.companyId, id));
  const addMember = async (role: 'owner' | 'admin' | 'staff', status = 'active' as const) => {
    const user = await createTestUser(t);
    await database.db
      .insert(companyUsers)
      .values({ companyId, userId: user.userId, email: user.email, role, status });
    return user;
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database);
    owner = await createTestUser(t);
    const response = await inject(owner, 'POST', '/company', {
      name: 'Harbour Clinic',
      timezone: 'Europe/London',
      currency: 'GBP',
    });
    expect(response.statusCode).toBe(201);
    companyId = response.json().data.id;
    // Membership rules, not seat limits (modules/billing tests those): a plan with room.
    await database.db
      .update(companies)
      .set({ plan: 'business' })
      .where(eq(companies.id, companyId));
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  it('makes the creator the active owner and derives a unique slug', async () => {
    const [member] = await membersOf(companyId);
    expect(member).toMatchObject({ userId: owner.userId, role: 'owner', status: 'active' });
    const again = await inject(owner, 'POST', '/company', {
      name: 'Harbour Clinic',
      timezone: 'Europe/London',
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().data).toMatchObject({ slug: 'harbour-clinic-2', currency: 'USD' });
  });

  it('refuses bad input naming the field, and creates nothing', async () => {
    const before = (await database.db.select().from(companies)).length;
    const response = await inject(owner, 'POST', '/company', {
      name: 'Nowhere',
      timezone: 'Mars/Olympus',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('validation_failed');
    expect(response.json().error.details.issues[0].field).toBe('body.timezone');
    expect((await database.db.select().from(companies)).length).toBe(before);

    const patch = await inject(owner, 'PATCH', `/company/${companyId}`, { currency: 'pounds' });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().error.details.issues[0].field).toBe('body.currency');
    const bad = await inject(owner, 'GET', '/company/not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.issues[0].field).toBe('params.companyId');
  });

  it('updates settings for owners and admins', async () => {
    const response = await inject(owner, 'PATCH', `/company/${companyId}`, {
      contactEmail: 'desk@harbour.example',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.contactEmail).toBe('desk@harbour.example');
  });

  it("stores contact phones in E.164, read in the company's country, and refuses invalid ones", async () => {
    // Created without a country: national numbers are read as British (DEFAULT_COUNTRY).
    expect((await inject(owner, 'GET', `/company/${companyId}`)).json().data.country).toBe('GB');
    const us = await inject(owner, 'POST', '/company', {
      name: 'Capitol Clinic',
      timezone: 'America/New_York',
      country: 'US',
      contactPhone: '(202) 555-0143',
    });
    expect(us.statusCode).toBe(201);
    expect(us.json().data).toMatchObject({ country: 'US', contactPhone: '+12025550143' });

    const national = await inject(owner, 'PATCH', `/company/${companyId}`, {
      contactPhone: '020 7946 0321',
    });
    expect(national.json().data.contactPhone).toBe('+442079460321');
    const stored = async () =>
      (await database.db.select().from(companies).where(eq(companies.id, companyId)))[0];
    const before = await stored();
    const bad = await inject(owner, 'PATCH', `/company/${companyId}`, {
      contactPhone: '07700 9',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({
      code: 'invalid_phone',
      details: { field: 'body.contactPhone', country: 'GB' },
    });
    const badCountry = await inject(owner, 'PATCH', `/company/${companyId}`, { country: 'XX' });
    expect(badCountry.json().error.code).toBe('validation_failed');
    expect(await stored()).toEqual(before);
  });

  it('asks to wait, with Retry-After, when no more invitations may be mailed this hour', async () => {
    const limited = await buildTestApp(database, { RATE_LIMIT_EMAIL_SENT: '1' }, { keys: t.keys });
    try {
      const invite = (email: string) =>
        limited.app.inject({
          method: 'POST',
          url: `/api/company/${companyId}/users`,
          headers: owner.headers,
          payload: { email, role: 'staff' },
        });
      expect((await invite('first.of.hour@example.test')).statusCode).toBe(201);
      const response = await invite('second.of.hour@example.test');
      expect(response.statusCode, response.body).toBe(429);
      expect(response.json().error.code).toBe('too_many_requests');
      const wait = Number(response.headers['retry-after']);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(3600);
    } finally {
      await limited.app.close();
    }
  });

  it('invites an address whose sign-up is being written at the same moment', async () => {
    const email = 'signing.up@example.test';
    const [signUp, invited] = await Promise.all([
      t.app.inject({ method: 'POST', url: '/auth/v1/otp', payload: { email } }),
      inject(owner, 'POST', `/company/${companyId}/users`, { email, role: 'staff' }),
    ]);
    expect(signUp.statusCode).toBe(200);
    expect(invited.statusCode, invited.body).toBe(201);
  });

  it('invites by email: new addresses get an invited auth user and a mail naming the company, and join once they accept', async () => {
    const email = 'new.nurse@example.test';
    const response = await inject(owner, 'POST', `/company/${companyId}/users`, {
      email: 'New.Nurse@Example.test',
      role: 'staff',
    });
    expect(response.statusCode).toBe(201);
    const invited = response.json().data;
    expect(invited).toMatchObject({
      email,
      role: 'staff',
      status: 'invited',
      invitedBy: owner.userId,
    });
    const [user] = await database.db.select().from(authUsers).where(eq(authUsers.email, email));
    expect(user?.invitedAt).toBeInstanceOf(Date);
    expect(user?.encryptedPassword ?? null).toBeNull();
    const mail = await database.db
      .select()
      .from(authDevMailbox)
      .where(eq(authDevMailbox.to, email));
    expect(mail).toHaveLength(1);
    // The auth service's invitation: its link confirms the address and signs them in.
    expect(mail[0]?.subject).toBe('You have been invited to join Harbour Clinic on UpNext');
    expect(mail[0]?.text).toContain('Harbour Clinic has invited you');
    expect(mail[0]?.text).toMatch(/\/auth\/v1\/verify\?token=[^&\s]+&type=invite/);

    // Inviting again is a clear conflict, not a second row.
    const again = await inject(owner, 'POST', `/company/${companyId}/users`, {
      email,
      role: 'admin',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('already_member');
    const mails = await database.db
      .select()
      .from(authDevMailbox)
      .where(eq(authDevMailbox.to, email));
    expect(mails).toHaveLength(1);

    // An invited member has no rights yet and cannot be activated by hand ...
    const patch = await inject(owner, 'PATCH', `/company/${companyId}/users/${invited.userId}`, {
      status: 'active',
    });
    expect(patch.json().error.code).toBe('invite_pending');
    // The link signs them in; the membership waits for their answer.
    const link = new URL(/https?:\/\/\S+type=invite\S*/.exec(mail[0]?.text ?? '')?.[0] ?? '');
    const verify = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(verify.statusCode).toBe(303);
    const fragment = new URLSearchParams(new URL(verify.headers.location as string).hash.slice(1));
    const accessToken = fragment.get('access_token');
    expect(accessToken).toBeTruthy();
    const headers = { authorization: `Bearer ${accessToken}` };
    const data = await t.app.inject({ method: 'GET', url: '/api/user/user-data', headers });
    expect(data.json().data.companies).toEqual([
      expect.objectContaining({ companyId, role: 'staff', status: 'invited' }),
    ]);
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/api/user/invitations/${companyId}/accept`,
      headers,
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data.companies).toEqual([
      expect.objectContaining({ companyId, role: 'staff', status: 'active' }),
    ]);
  });

  it('adds an existing confirmed account directly, with a notice instead of a new account', async () => {
    const existing = await createTestUser(t);
    const usersBefore = await database.db.$count(authUsers);
    const response = await inject(owner, 'POST', `/company/${companyId}/users`, {
      email: existing.email,
      role: 'admin',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({ userId: existing.userId, status: 'invited' });
    expect(await database.db.$count(authUsers)).toBe(usersBefore);
    const [notice] = await database.db
      .select()
      .from(authDevMailbox)
      .where(eq(authDevMailbox.to, existing.email));
    expect(notice?.subject).toBe('You have been invited to join Harbour Clinic on UpNext');
    expect(notice?.text).toContain('Harbour Clinic has invited you');
    // Its button opens their account page, where invitations are answered; nothing to verify.
    expect(notice?.text).toMatch(/: https?:\/\/\S+\/admin\/account\n/);
    expect(notice?.text).not.toContain('/auth/v1/verify');
  });

  it("writes the invitation and the notice in the inviter's language", async () => {
    const inFrench = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/company/${companyId}/users`,
        headers: { ...owner.headers, 'accept-language': 'fr-CA,fr;q=0.9' },
        payload: { email, role: 'staff' },
      });
    const mailTo = async (email: string) =>
      (await database.db.select().from(authDevMailbox).where(eq(authDevMailbox.to, email)))[0];
    const newcomer = 'nouvelle.infirmiere@example.test';
    expect((await inFrench(newcomer)).statusCode).toBe(201);
    const invitation = await mailTo(newcomer);
    expect(invitation?.subject).toBe('Vous êtes invité à rejoindre Harbour Clinic sur UpNext');
    expect(invitation?.html).toContain('<html lang="fr" dir="ltr">');
    expect(invitation?.text).toMatch(/\/auth\/v1\/verify\?token=[^&\s]+&type=invite/);

    const existing = await createTestUser(t);
    expect((await inFrench(existing.email)).statusCode).toBe(201);
    const notice = await mailTo(existing.email);
    expect(notice?.subject).toBe('Vous êtes invité à rejoindre Harbour Clinic sur UpNext');
    expect(notice?.text).toContain('Connectez-vous, puis acceptez ou refusez l’invitation');
  });

  it('grants an invitation nothing until its invitee accepts it; the invitee may decline instead', async () => {
    const invitee = await createTestUser(t);
    const second = await inject(owner, 'POST', '/company', {
      name: 'Second Clinic',
      timezone: 'Europe/London',
    });
    const secondId = second.json().data.id as string;
    for (const id of [companyId, secondId]) {
      const invited = await inject(owner, 'POST', `/company/${id}/users`, {
        email: invitee.email,
        role: 'staff',
      });
      expect(invited.statusCode).toBe(201);
    }
    // Reading the roles record (as the web does after every sign-in) changes nothing.
    const data = await inject(invitee, 'GET', '/user/user-data');
    expect(data.json().data.companies.map((c: { status: string }) => c.status)).toEqual([
      'invited',
      'invited',
    ]);
    expect((await inject(invitee, 'GET', `/company/${companyId}`)).statusCode).toBe(403);
    // Nor does the inviter learn the invitee's record before they accept.
    const peek = await inject(
      owner,
      'GET',
      `/user/user-data?userId=${encodeURIComponent(invitee.email)}`,
    );
    expect([peek.statusCode, peek.json().error.code]).toEqual([403, 'forbidden']);

    const pending = await inject(invitee, 'GET', '/user/invitations');
    expect(pending.json().data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ companyId, companyName: 'Harbour Clinic', role: 'staff' }),
        expect.objectContaining({ companyId: secondId, companyName: 'Second Clinic' }),
      ]),
    );
    // Only the invitee answers: others (anonymous too) cannot accept for them.
    expect(
      (await inject(owner, 'POST', `/user/invitations/${companyId}/accept`)).json().error.code,
    ).toBe('invitation_not_found');
    expect(
      (await inject(undefined, 'POST', `/user/invitations/${companyId}/accept`)).statusCode,
    ).toBe(401);

    const accepted = await inject(invitee, 'POST', `/user/invitations/${companyId}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect((await inject(invitee, 'GET', `/company/${companyId}`)).statusCode).toBe(200);
    const read = await inject(
      owner,
      'GET',
      `/user/user-data?userId=${encodeURIComponent(invitee.email)}`,
    );
    expect(read.statusCode).toBe(200);

    const declined = await inject(invitee, 'POST', `/user/invitations/${secondId}/decline`);
    expect(declined.statusCode).toBe(200);
    expect(declined.json().data).toEqual([]);
    const members = await inject(owner, 'GET', `/company/${secondId}/users`);
    expect(members.json().data.map((m: { userId: string }) => m.userId)).not.toContain(
      invitee.userId,
    );
    // Answered invitations are gone: a second answer finds nothing, and changes nothing.
    const again = await inject(invitee, 'POST', `/user/invitations/${secondId}/accept`);
    expect([again.statusCode, again.json().error.code]).toEqual([404, 'invitation_not_found']);
    expect((await inject(invitee, 'GET', `/company/${secondId}`)).statusCode).toBe(403);
  });

  it('never leaves a company without an active owner', async () => {
    for (const body of [{ role: 'admin' }, { status: 'disabled' }]) {
      const response = await inject(
        owner,
        'PATCH',
        `/company/${companyId}/users/${owner.userId}`,
        body,
      );
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe('last_owner');
    }
    const remove = await inject(owner, 'DELETE', `/company/${companyId}/users/${owner.userId}`);
    expect(remove.json().error.code).toBe('last_owner');
    const [row] = await database.db
      .select()
      .from(companyUsers)
      .where(and(eq(companyUsers.companyId, companyId), eq(companyUsers.userId, owner.userId)));
    expect(row).toMatchObject({ role: 'owner', status: 'active' });

    // With a second owner, one may step down; the other is then the last again.
    const second = await addMember('owner');
    const stepDown = await inject(second, 'PATCH', `/company/${companyId}/users/${second.userId}`, {
      role: 'admin',
    });
    expect(stepDown.statusCode).toBe(200);
    expect(stepDown.json().data.role).toBe('admin');
  });

  it('serialises concurrent demotions of the last two owners: one wins, one gets last_owner', async () => {
    const res = await inject(owner, 'POST', '/company', { name: 'Race Co', timezone: 'UTC' });
    const raceId = res.json().data.id;
    const other = await createTestUser(t);
    await database.db.insert(companyUsers).values({
      companyId: raceId,
      userId: other.userId,
      email: other.email,
      role: 'owner',
      status: 'active',
    });
    const results = await Promise.all([
      // Each steps down at the same moment.
      inject(owner, 'PATCH', `/company/${raceId}/users/${owner.userId}`, { role: 'staff' }),
      inject(other, 'PATCH', `/company/${raceId}/users/${other.userId}`, { role: 'staff' }),
    ]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409]);
    const owners = (await membersOf(raceId)).filter(
      (m) => m.role === 'owner' && m.status === 'active',
    );
    expect(owners).toHaveLength(1);
  });

  it('lets admins manage staff but never owners, nor make owners', async () => {
    const admin = await addMember('admin');
    const staff = await addMember('staff');
    const promote = await inject(admin, 'PATCH', `/company/${companyId}/users/${staff.userId}`, {
      role: 'owner',
    });
    expect(promote.statusCode).toBe(403);
    expect(promote.json().error.code).toBe('owner_protected');
    const demote = await inject(admin, 'PATCH', `/company/${companyId}/users/${owner.userId}`, {
      status: 'disabled',
    });
    expect(demote.json().error.code).toBe('owner_protected');
    const removeOwner = await inject(
      admin,
      'DELETE',
      `/company/${companyId}/users/${owner.userId}`,
    );
    expect(removeOwner.json().error.code).toBe('owner_protected');

    const disable = await inject(admin, 'PATCH', `/company/${companyId}/users/${staff.userId}`, {
      status: 'disabled',
    });
    expect(disable.json().data.status).toBe('disabled');
    // A disabled member has no rights any more.
    expect((await inject(staff, 'GET', `/company/${companyId}`)).statusCode).toBe(403);
    const enable = await inject(admin, 'PATCH', `/company/${companyId}/users/${staff.userId}`, {
      status: 'active',
    });
    expect(enable.json().data.status).toBe('active');
    const remove = await inject(admin, 'DELETE', `/company/${companyId}/users/${staff.userId}`);
    expect(remove.statusCode).toBe(200);
    expect((await membersOf(companyId)).some((m) => m.userId === staff.userId)).toBe(false);
    const gone = await inject(admin, 'DELETE', `/company/${companyId}/users/${staff.userId}`);
    expect(gone.statusCode).toBe(404);
  });

  it('answers the roles record: own with a stable random subscribeId; others only for their administrators', async () => {
    const first = await inject(
      owner,
      'GET',
      `/user/user-data?userId=${encodeURIComponent(owner.email)}`,
    );
    expect(first.statusCode).toBe(200);
    const data = first.json().data;
    expect(data).toMatchObject({ userId: owner.userId, email: owner.email });
    expect(data.subscribeId).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(data.companies.map((c: { role: string }) => c.role)).toContain('owner');
    const second = await inject(owner, 'GET', '/user/user-data');
    expect(second.json().data.subscribeId).toBe(data.subscribeId);

    const staff = await addMember('staff');
    const stranger = await createTestUser(t);
    // The owner administers the staff member's company.
    const ofStaff = await inject(
      owner,
      'GET',
      `/user/user-data?userId=${encodeURIComponent(staff.email)}`,
    );
    expect(ofStaff.statusCode).toBe(200);
    expect(ofStaff.json().data.userId).toBe(staff.userId);
    // Staff may not read the owner's record; strangers neither (and learn nothing about existence).
    const up = await inject(
      staff,
      'GET',
      `/user/user-data?userId=${encodeURIComponent(owner.email)}`,
    );
    expect(up.statusCode).toBe(403);
    const ofStranger = await inject(
      owner,
      'GET',
      `/user/user-data?userId=${encodeURIComponent(stranger.email)}`,
    );
    expect(ofStranger.statusCode).toBe(403);
    const nobody = await inject(owner, 'GET', '/user/user-data?userId=nobody%40example.test');
    expect(nobody.statusCode).toBe(403);
    expect(nobody.body).toBe(ofStranger.body);
    const anonymous = await inject(undefined, 'GET', '/user/user-data');
    expect(anonymous.statusCode).toBe(401);
  });

  it('updates the own profile and refuses bad input', async () => {
    const ok = await inject(owner, 'PATCH', '/user/profile', {
      displayName: 'Dr Owner',
      timezone: 'Asia/Colombo',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ displayName: 'Dr Owner', timezone: 'Asia/Colombo' });
    const bad = await inject(owner, 'PATCH', '/user/profile', { timezone: 'Nowhere/City' });
    expect(bad.json().error.details.issues[0].field).toBe('body.timezone');
    const [profile] = await database.db
      .select()
      .from(userProfiles)
      .where(eq(userProfiles.userId, owner.userId));
    expect(profile?.timezone).toBe('Asia/Colombo');
  });
});
