import { type MeetingStateEvent, meetingRingMs } from '@upnext/contract/meetings';
import { topics } from '@upnext/contract/realtime-topics';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { meetings } from '../../db/schema/meetings.ts';
import { queueTokens } from '../../db/schema/tokens.ts';
import type { EventPublisher } from '../../lib/events.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createTestUser } from '../../test/users.ts';
import { subscribeIdsOf } from '../tokens/tokens.repository.ts';
import { turnPassword } from './ice-servers.ts';
import { createCalledVisitor, meetingRows, startMeeting } from './meetings.fixtures.ts';
import { endCallsOfFinishedVisits, sweepMissedCalls } from './meetings.service.ts';

const turnEnv = {
  STUN_URLS: 'stun:stun.example.test:3478',
  TURN_URLS: 'turn:turn.example.test:3478',
  TURN_SECRET: 'meetings-test-turn-secret',
  TURN_CREDENTIAL_TTL: '600',
};

describe.each(testDrivers)('meetings API (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let now = Date.now();
  const clock = () => new Date(now);
  const published: Array<{ destination: string; body: unknown }> = [];
  const publisher: EventPublisher = {
    publish: (destination, body) => published.push({ destination, body }),
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database, turnEnv, { clock, publisher });
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });
  beforeEach(() => {
    now = Date.now();
    published.length = 0;
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const post = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, headers });

  it('lets staff ring the called visitor; both parties read it, with the ids of the meeting route', async () => {
    const world = await createCalledVisitor(t);
    const started = await startMeeting(t, world.owner, world.session.id, world.tokenId);
    expect(started.statusCode, started.body).toBe(201);
    const meeting = started.json().data;
    expect(meeting).toMatchObject({
      queueId: world.queue.id,
      sessionId: world.session.id,
      tokenId: world.tokenId,
      tokenLabel: 'A-001',
      state: 'ringing',
      role: 'staff',
      staffUserId: world.owner.userId,
      visitorUserId: world.visitor.userId,
      answeredAt: null,
      endedAt: null,
    });
    expect(Date.parse(meeting.ringingUntil) - Date.parse(meeting.createdAt)).toBe(meetingRingMs);

    const asVisitor = await get(`/api/meetings/${meeting.id}`, world.visitor.headers);
    expect(asVisitor.statusCode).toBe(200);
    expect(asVisitor.json().data).toMatchObject({
      id: meeting.id,
      queueId: world.queue.id,
      sessionId: world.session.id,
      role: 'visitor',
    });
    expect((await get(`/api/meetings/${meeting.id}`, world.owner.headers)).statusCode).toBe(200);

    // Both parties hear that it rings, on their own meeting topics.
    const ids = await subscribeIdsOf(database.db, [world.owner.userId, world.visitor.userId]);
    const ringing = published.filter(
      (event) => (event.body as MeetingStateEvent).meetingId === meeting.id,
    );
    expect(ringing.map((event) => event.destination).sort()).toEqual(
      [
        topics.meeting(ids.get(world.owner.userId) ?? ''),
        topics.meeting(ids.get(world.visitor.userId) ?? ''),
      ].sort(),
    );
    expect(ringing[0]?.body).toMatchObject({ type: 'meeting.state', state: 'ringing' });
  });

  it('shows nothing of a meeting to anyone but its two parties', async () => {
    const world = await createCalledVisitor(t);
    const meeting = (await startMeeting(t, world.owner, world.session.id, world.tokenId)).json()
      .data;
    const colleague = await world.addStaff('admin');
    const stranger = await createTestUser(t);
    for (const headers of [colleague.headers, stranger.headers]) {
      for (const response of [
        await get(`/api/meetings/${meeting.id}`, headers),
        await post(`/api/meetings/${meeting.id}/end`, headers),
        await get(`/api/meetings/${crypto.randomUUID()}`, headers),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(response.json().error.code).toBe('meeting_not_found');
        expect(response.body).not.toContain(world.visitor.userId);
      }
    }
    expect((await get(`/api/meetings/${meeting.id}`)).json().error.code).toBe('unauthorized');
    expect((await get('/api/meetings/not-a-uuid', world.owner.headers)).json().error.code).toBe(
      'validation_failed',
    );
    const [row] = await database.db.select().from(meetings).where(eq(meetings.id, meeting.id));
    expect(row?.state).toBe('ringing');
  });

  it('refuses to start a meeting, writing nothing, for anyone who may not operate the session', async () => {
    const world = await createCalledVisitor(t);
    const unassigned = await world.addStaff('staff', { assigned: false });
    const stranger = await createTestUser(t);
    const before = await meetingRows(t);
    const cases = [
      [world.visitor, 403, 'forbidden'],
      [stranger, 403, 'forbidden'],
      [unassigned, 403, 'forbidden'],
    ] as const;
    for (const [user, status, code] of cases) {
      const response = await startMeeting(t, user, world.session.id, world.tokenId);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().error.code).toBe(code);
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/meetings',
      payload: { sessionId: world.session.id, tokenId: world.tokenId },
    });
    expect(anonymous.json().error.code).toBe('unauthorized');
    expect(await meetingRows(t)).toEqual(before);

    // Staff assigned to the session's sub-queue may.
    await world.assign(unassigned);
    expect((await startMeeting(t, unassigned, world.session.id, world.tokenId)).statusCode).toBe(
      201,
    );
  });

  it('refuses with a stable code when the queue has no video, the token is not called, or there is nobody to ring', async () => {
    const offline = await createCalledVisitor(t, { online: false });
    const before = await meetingRows(t);
    const refusal = async (response: Awaited<ReturnType<typeof startMeeting>>) => {
      expect(response.statusCode, response.body).toBe(
        response.json().error.code === 'token_not_found' ? 404 : 409,
      );
      return response.json().error.code;
    };
    expect(
      await refusal(await startMeeting(t, offline.owner, offline.session.id, offline.tokenId)),
    ).toBe('video_not_offered');

    const world = await createCalledVisitor(t);
    // A token still waiting in line.
    const waiting = await createTestUser(t);
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/queues/sessions/tokens',
      headers: waiting.headers,
      payload: { sessionId: world.session.id },
    });
    expect(
      await refusal(await startMeeting(t, world.owner, world.session.id, taken.json().data.id)),
    ).toBe('token_not_in_service');
    // Another session's token.
    expect(
      await refusal(await startMeeting(t, world.owner, world.session.id, offline.tokenId)),
    ).toBe('token_not_found');
    // A walk-in without an account, called.
    await database.db
      .update(queueTokens)
      .set({ userId: null })
      .where(eq(queueTokens.id, world.tokenId));
    expect(await refusal(await startMeeting(t, world.owner, world.session.id, world.tokenId))).toBe(
      'visitor_not_reachable',
    );
    const unknownSession = await startMeeting(t, world.owner, crypto.randomUUID(), world.tokenId);
    expect(unknownSession.json().error.code).toBe('session_not_found');
    expect(await meetingRows(t)).toEqual(before);
  });

  it('rings once per token: a second start while it rings is a conflict naming the live meeting', async () => {
    const world = await createCalledVisitor(t);
    const first = (await startMeeting(t, world.owner, world.session.id, world.tokenId)).json().data;
    const again = await startMeeting(t, world.owner, world.session.id, world.tokenId);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({
      code: 'meeting_in_progress',
      details: { meetingId: first.id },
    });
    // Once it has ended, a new call may start.
    expect((await post(`/api/meetings/${first.id}/end`, world.owner.headers)).statusCode).toBe(200);
    expect((await startMeeting(t, world.owner, world.session.id, world.tokenId)).statusCode).toBe(
      201,
    );
  });

  it('lets either party end it once, and tells both', async () => {
    const world = await createCalledVisitor(t);
    const meeting = (await startMeeting(t, world.owner, world.session.id, world.tokenId)).json()
      .data;
    published.length = 0;
    now += 5000;
    const ended = await post(`/api/meetings/${meeting.id}/end`, world.visitor.headers);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().data).toMatchObject({
      state: 'ended',
      endedAt: new Date(now).toISOString(),
      role: 'visitor',
    });
    expect(published.map((event) => (event.body as MeetingStateEvent).state)).toEqual([
      'ended',
      'ended',
    ]);
    const again = await post(`/api/meetings/${meeting.id}/end`, world.owner.headers);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({
      code: 'meeting_not_live',
      details: { state: 'ended' },
    });
  });

  it("lists the visitor's waiting call, and after 45 s unanswered it is missed on both sides", async () => {
    const world = await createCalledVisitor(t);
    const meeting = (await startMeeting(t, world.owner, world.session.id, world.tokenId)).json()
      .data;
    const waiting = async () =>
      (await get('/api/meetings?mine=true&state=ringing', world.visitor.headers))
        .json()
        .data.map((m: { id: string }) => m.id);
    expect(await waiting()).toEqual([meeting.id]);
    expect((await get('/api/meetings?state=ringing', world.visitor.headers)).statusCode).toBe(400);
    expect((await get('/api/meetings?mine=true')).statusCode).toBe(401);

    const deps = { db: database.db, clock, publisher };
    // (Calls left ringing by earlier tests are overdue by now; only this one is looked at.)
    now += meetingRingMs - 1;
    await sweepMissedCalls(deps);
    expect(await waiting()).toEqual([meeting.id]);

    now += 1;
    // Past the deadline it reads as missed even before the sweep has run...
    expect(await waiting()).toEqual([]);
    const read = await get(`/api/meetings/${meeting.id}`, world.owner.headers);
    expect(read.json().data.state).toBe('missed');
    published.length = 0;
    // ...and the sweep writes it and tells both parties.
    expect(await sweepMissedCalls(deps)).toBe(1);
    const [row] = await database.db.select().from(meetings).where(eq(meetings.id, meeting.id));
    expect(row).toMatchObject({ state: 'missed', endedAt: new Date(now) });
    const events = published.filter(
      (event) => (event.body as MeetingStateEvent).meetingId === meeting.id,
    );
    expect(events.map((event) => (event.body as MeetingStateEvent).state)).toEqual([
      'missed',
      'missed',
    ]);
    expect(await sweepMissedCalls(deps)).toBe(0);
    const missed = await get('/api/meetings?mine=true&state=missed', world.owner.headers);
    expect(missed.json().data.map((m: { id: string }) => m.id)).toContain(meeting.id);
    expect((await post(`/api/meetings/${meeting.id}/end`, world.owner.headers)).statusCode).toBe(
      409,
    );
  });

  it('ends the call of a visit that is over (no-show, completed) and tells both parties, and only that one', async () => {
    const over = await createCalledVisitor(t);
    const goingOn = await createCalledVisitor(t);
    const ended = (await startMeeting(t, over.owner, over.session.id, over.tokenId)).json().data;
    const live = (await startMeeting(t, goingOn.owner, goingOn.session.id, goingOn.tokenId)).json()
      .data;
    const deps = { db: database.db, clock, publisher };
    await endCallsOfFinishedVisits(deps);
    const stateOf = async (id: string) =>
      (await database.db.select().from(meetings).where(eq(meetings.id, id)))[0]?.state;
    expect(await stateOf(ended.id)).toBe('ringing');

    const noShow = await t.app.inject({
      method: 'POST',
      url: `/api/queues/sessions/tokens/${over.tokenId}/no-show`,
      headers: over.owner.headers,
    });
    expect(noShow.statusCode, noShow.body).toBe(200);
    published.length = 0;
    expect(await endCallsOfFinishedVisits(deps)).toBe(1);
    expect(await stateOf(ended.id)).toBe('ended');
    expect(await stateOf(live.id)).toBe('ringing');
    const states = published
      .filter((event) => (event.body as MeetingStateEvent).meetingId === ended.id)
      .map((event) => (event.body as MeetingStateEvent).state);
    expect(states).toEqual(['ended', 'ended']);
    expect(await endCallsOfFinishedVisits(deps)).toBe(0);
  });

  it('marks each overdue call missed exactly once when sweeps run side by side (SKIP LOCKED)', async () => {
    const started: string[] = [];
    for (let i = 0; i < 4; i++) {
      const world = await createCalledVisitor(t);
      started.push(
        (await startMeeting(t, world.owner, world.session.id, world.tokenId)).json().data.id,
      );
    }
    now += meetingRingMs;
    published.length = 0;
    const deps = { db: database.db, clock, publisher };
    const counts = await Promise.all([
      sweepMissedCalls(deps, 2),
      sweepMissedCalls(deps, 2),
      sweepMissedCalls(deps, 2),
    ]);
    const swept = counts.reduce((sum, count) => sum + count, 0) + (await sweepMissedCalls(deps));
    expect(swept).toBeGreaterThanOrEqual(started.length);
    const mine = published
      .map((event) => (event.body as MeetingStateEvent).meetingId)
      .filter((id) => started.includes(id));
    // Two events (one per party) per meeting, never more.
    expect(mine.sort()).toEqual([...started, ...started].sort());
  });

  it('gives each party ICE servers with a TURN credential of their own while the meeting is live, and nobody else', async () => {
    const world = await createCalledVisitor(t);
    const meeting = (await startMeeting(t, world.owner, world.session.id, world.tokenId)).json()
      .data;
    const url = `/api/meetings/${meeting.id}/ice-servers`;
    const expiry = Math.floor(now / 1000) + 600;
    for (const party of [world.owner, world.visitor]) {
      const response = await get(url, party.headers);
      expect(response.statusCode, response.body).toBe(200);
      const username = `${expiry}:${party.userId}`;
      expect(response.json().data).toEqual({
        iceServers: [
          { urls: [turnEnv.STUN_URLS] },
          {
            urls: [turnEnv.TURN_URLS],
            username,
            credential: turnPassword(turnEnv.TURN_SECRET, username),
          },
        ],
        expiresAt: new Date(expiry * 1000).toISOString(),
      });
    }
    const stranger = await createTestUser(t);
    const refused = await get(url, stranger.headers);
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain('credential');
    expect((await get(url)).statusCode).toBe(401);
    await post(`/api/meetings/${meeting.id}/end`, world.owner.headers);
    const over = await get(url, world.visitor.headers);
    expect(over.statusCode).toBe(409);
    expect(over.json().error.code).toBe('meeting_not_live');
  });
});
