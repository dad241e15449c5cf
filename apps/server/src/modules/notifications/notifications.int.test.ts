import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer, MailMessage } from '../../auth/mailer.ts';
import { notifications } from '../../db/schema/notifications.ts';
import { queueTokens } from '../../db/schema/tokens.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createLiveSession } from '../../test/live-session.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';
import { cancelSessionTokens, enqueueDueReminders } from '../tokens/tokens.notifications.ts';
import { createOutbox, retryDelayMs } from './outbox.ts';

const silent = pino({ level: 'silent' }) as FastifyBaseLogger;

function recordingMailer(failures = 0): Mailer & { sent: MailMessage[] } {
  let toFail = failures;
  const sent: MailMessage[] = [];
  return {
    kind: 'smtp',
    sent,
    async send(message) {
      if (toFail > 0) {
        toFail -= 1;
        throw new Error('421 try again later');
      }
      sent.push(message);
    },
  };
}

describe.each(testDrivers)('the notification outbox (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database);
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  const post = (url: string, user: TestUser, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api${url}`, payload, headers: user.headers });
  const rowsTo = (recipient: string) =>
    database.db.select().from(notifications).where(eq(notifications.recipient, recipient));
  /** Delivers whatever is due (each test looks only at its own recipients). */
  async function deliver(mailer: Mailer, now = new Date()) {
    const outbox = createOutbox({ database, clock: () => now, mailer, log: silent });
    return outbox.runOnce();
  }

  it('mails the visitor their token with the live-status link, once', async () => {
    const live = await createLiveSession(t);
    const visitor = await createTestUser(t);
    const token = (
      await post('/queues/sessions/tokens', visitor, { sessionId: live.session.id })
    ).json().data;
    const [row] = await rowsTo(visitor.email);
    expect(row).toMatchObject({ channel: 'email', template: 'token_issued', status: 'pending' });
    const mailer = recordingMailer();
    await deliver(mailer);
    const mail = mailer.sent.find((message) => message.to === visitor.email);
    expect(mail?.subject).toBe(`Your place at ${live.company.name}: A-001`);
    expect(token.statusUrl).toMatch(/\/visit\/[\w-]{43}$/);
    expect(mail?.text).toContain(token.statusUrl);
    expect(mail?.text).toContain('You are number 1 in line');
    expect((await rowsTo(visitor.email))[0]).toMatchObject({ status: 'sent', attempts: 1 });
    const again = recordingMailer();
    await deliver(again);
    expect(again.sent.filter((message) => message.to === visitor.email)).toHaveLength(0);
  });

  it('writes to a visitor in the language of the page they took their token from', async () => {
    const live = await createLiveSession(t);
    const visitor = await createTestUser(t);
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/queues/sessions/tokens',
      payload: { sessionId: live.session.id },
      headers: { ...visitor.headers, 'accept-language': 'fr-CA, fr;q=0.9, en;q=0.5' },
    });
    expect(taken.statusCode).toBe(201);
    // Called later by staff whose own page is English: the visitor still reads French.
    await t.app.inject({
      method: 'POST',
      url: '/api/queues/sessions/next-token',
      payload: { sessionId: live.session.id },
      headers: { ...live.owner.headers, 'accept-language': 'en' },
    });
    const mailer = recordingMailer();
    await deliver(mailer);
    const mails = mailer.sent.filter((message) => message.to === visitor.email);
    expect(mails.map((mail) => mail.subject)).toEqual([
      `Votre place chez ${live.company.name} : A-001`,
      'C’est votre tour : A-001',
    ]);
    expect(mails[0]?.text).toContain('Vous êtes le numéro 1 dans la file');
    expect(mails[0]?.html).toContain('<html lang="fr" dir="ltr">');
    expect(mails[1]?.text).toContain('Veuillez vous rendre au Counter 1.');
  });

  it('writes right to left in Arabic, and in English for a language it does not speak', async () => {
    const live = await createLiveSession(t);
    const [arabic, german] = await Promise.all([createTestUser(t), createTestUser(t)]);
    for (const [visitor, language] of [
      [arabic, 'ar-EG'],
      [german, 'de-DE'],
    ] as const) {
      await t.app.inject({
        method: 'POST',
        url: '/api/queues/sessions/tokens',
        payload: { sessionId: live.session.id },
        headers: { ...visitor.headers, 'accept-language': language },
      });
    }
    const mailer = recordingMailer();
    await deliver(mailer);
    const to = (visitor: TestUser) => mailer.sent.find((message) => message.to === visitor.email);
    expect(to(arabic)?.subject).toBe(`مكانك لدى ${live.company.name}: A-001`);
    expect(to(arabic)?.html).toContain('<html lang="ar" dir="rtl">');
    expect(to(german)?.subject).toBe(`Your place at ${live.company.name}: A-002`);
  });

  it('writes nothing when the change is refused', async () => {
    const live = await createLiveSession(t, { capacity: 0 });
    const visitor = await createTestUser(t);
    const refused = await post('/queues/sessions/tokens', visitor, { sessionId: live.session.id });
    expect(refused.json().error.code).toBe('session_full');
    expect(await rowsTo(visitor.email)).toHaveLength(0);
  });

  it('retries a failed delivery with backoff, then gives up and marks it failed', async () => {
    const live = await createLiveSession(t);
    const visitor = await createTestUser(t);
    await post('/queues/sessions/tokens', visitor, { sessionId: live.session.id });
    const start = new Date();
    const failing = recordingMailer(99);
    const outbox = (now: Date) =>
      createOutbox({ database, clock: () => now, mailer: failing, log: silent, maxAttempts: 3 });
    await outbox(start).runOnce();
    let [row] = await rowsTo(visitor.email);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: '421 try again later' });
    expect(row?.nextAttemptAt.getTime()).toBe(start.getTime() + retryDelayMs(1));
    // Not due yet: nothing happens.
    await outbox(new Date(start.getTime() + 1000)).runOnce();
    expect((await rowsTo(visitor.email))[0]?.attempts).toBe(1);
    let now = start;
    for (let i = 0; i < 2; i += 1) {
      now = new Date(now.getTime() + retryDelayMs(3));
      await outbox(now).runOnce();
    }
    [row] = await rowsTo(visitor.email);
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
    expect(retryDelayMs(2)).toBe(2 * retryDelayMs(1));
    expect(retryDelayMs(20)).toBe(3_600_000);
  });

  it('reclaims a message whose sender died mid-delivery once its lease ends', async () => {
    const live = await createLiveSession(t);
    const visitor = await createTestUser(t);
    await post('/queues/sessions/tokens', visitor, { sessionId: live.session.id });
    const [row] = await rowsTo(visitor.email);
    const now = new Date();
    await database.db
      .update(notifications)
      .set({ status: 'sending', attempts: 1, nextAttemptAt: new Date(now.getTime() - 1) })
      .where(eq(notifications.id, row?.id as string));
    const mailer = recordingMailer();
    await deliver(mailer, now);
    expect(mailer.sent.some((message) => message.to === visitor.email)).toBe(true);
    expect((await rowsTo(visitor.email))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('delivers each message once when two workers run at the same time', async () => {
    const live = await createLiveSession(t, { capacity: 50 });
    const visitors = await Promise.all(Array.from({ length: 20 }, () => createTestUser(t)));
    for (const visitor of visitors)
      await post('/queues/sessions/tokens', visitor, { sessionId: live.session.id });
    const one = recordingMailer();
    const two = recordingMailer();
    await Promise.all([deliver(one), deliver(two)]);
    const emails = new Set(visitors.map((visitor) => visitor.email));
    const delivered = [...one.sent, ...two.sent].filter((message) => emails.has(message.to));
    expect(delivered).toHaveLength(20);
    expect(new Set(delivered.map((message) => message.to)).size).toBe(20);
  });

  it('confirms a booking with a calendar file, and reminds once a day before', async () => {
    const live = await createLiveSession(t, {
      status: 'scheduled',
      startsInHours: 30,
      slots: { slotMinutes: 30, capacityPerSlot: 2 },
    });
    const visitor = await createTestUser(t);
    await post('/queues/sessions/slots/tokens', visitor, {
      serviceId: live.serviceId as string,
      slotNo: 1,
    });
    const [confirmation] = await rowsTo(visitor.email);
    expect(confirmation).toMatchObject({ template: 'booking_confirmed' });
    expect(confirmation?.attachments[0]?.filename).toBe('booking-A-001.ics');
    expect(confirmation?.attachments[0]?.content).toContain('BEGIN:VEVENT');

    const deps = { publicUrl: t.config.publicUrl, smsEnabled: false };
    await enqueueDueReminders(database.db, deps, new Date());
    expect(await rowsTo(visitor.email)).toHaveLength(1); // 30 h ahead: too early
    const dayBefore = new Date(Date.now() + 8 * 3_600_000);
    await enqueueDueReminders(database.db, deps, dayBefore);
    await enqueueDueReminders(database.db, deps, dayBefore);
    const rows = await rowsTo(visitor.email);
    expect(rows.map((row) => row.template).sort()).toEqual([
      'booking_confirmed',
      'booking_reminder',
    ]);
  });

  it('tells the called visitor and the one whose turn approaches', async () => {
    const live = await createLiveSession(t, { turnApproachingThreshold: 2 });
    const visitors = await Promise.all(Array.from({ length: 3 }, () => createTestUser(t)));
    for (const visitor of visitors)
      await post('/queues/sessions/tokens', visitor, { sessionId: live.session.id });
    await post('/queues/sessions/next-token', live.owner, { sessionId: live.session.id });
    const [first, , third] = visitors as [TestUser, TestUser, TestUser];
    expect((await rowsTo(first.email)).map((row) => row.template)).toContain('called');
    expect((await rowsTo(third.email)).map((row) => row.template)).toContain('turn_approaching');
    const mailer = recordingMailer();
    await deliver(mailer);
    const called = mailer.sent.find(
      (message) => message.to === first.email && message.subject.startsWith('It is your turn'),
    );
    expect(called?.text).toContain('Please go to Counter 1.');
  });

  it('cancels the live tokens of a cancelled session, frees their slots and tells the holders', async () => {
    const live = await createLiveSession(t, { slots: { slotMinutes: 30, capacityPerSlot: 2 } });
    const visitor = await createTestUser(t);
    await post('/queues/sessions/slots/tokens', visitor, {
      serviceId: live.serviceId as string,
      slotNo: live.futureSlotNo,
    });
    const now = new Date();
    const cancelled = await database.db.transaction((tx) =>
      cancelSessionTokens(
        tx,
        { publicUrl: t.config.publicUrl, smsEnabled: false },
        now,
        live.session.id,
        'The doctor is ill',
      ),
    );
    expect(cancelled).toHaveLength(1);
    const [token] = await database.db
      .select()
      .from(queueTokens)
      .where(eq(queueTokens.sessionId, live.session.id));
    expect(token).toMatchObject({ status: 'cancelled', cancelReason: 'session_cancelled' });
    const rows = await rowsTo(visitor.email);
    const notice = rows.find((row) => row.template === 'session_cancelled');
    expect(notice?.text).toContain('Reason: The doctor is ill');
    // The slot is free again.
    const other = await createTestUser(t);
    await live.setStatus('open');
    expect(
      (
        await post('/queues/sessions/slots/tokens', other, {
          serviceId: live.serviceId as string,
          slotNo: live.futureSlotNo,
        })
      ).statusCode,
    ).toBe(201);
  });
});
