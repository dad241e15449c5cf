import type { IMessage } from '@stomp/stompjs';
import { callMessageMaxBytes, meetingRingMs } from '@upnext/contract/meetings';
import { callDestination, topics } from '@upnext/contract/realtime-topics';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { meetings } from '../../db/schema/meetings.ts';
import { stompLimits } from '../../realtime/stomp-connection.ts';
import { connectStomp, Inbox, listen, type TestStomp, wssUrl } from '../../realtime/testing.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';
import { subscribeIdsOf } from '../tokens/tokens.repository.ts';
import { createCalledVisitor, startMeeting } from './meetings.fixtures.ts';
import { sweepMissedCalls } from './meetings.service.ts';

type Body = Record<string, unknown> & { type: string; meta?: Record<string, unknown> };

/**
 * The `/app/call` relay as browsers meet it: stompjs clients over /wss, each subscribed to
 * its own meeting topic. Every refusal is an ERROR frame, and is shown to have forwarded
 * nothing: the other party's next message is the one sent after it.
 */
describe.each(testDrivers)('meeting signalling over STOMP (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let base: string;
  let now = Date.now();
  const clock = () => new Date(now);
  const open: TestStomp[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database, {}, { clock });
    base = await listen(t.app);
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });
  beforeEach(() => {
    now = Date.now();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });

  /** A party's connection with its own meeting topic; calls and state events apart. */
  async function join(user: TestUser) {
    const stomp = await connectStomp(wssUrl(base, user.accessToken));
    open.push(stomp);
    const subscribeId = (await subscribeIdsOf(database.db, [user.userId])).get(user.userId);
    await stomp.subscribe(topics.meeting(subscribeId ?? ''));
    const calls = new Inbox<Body>();
    const states = new Inbox<Body>();
    const all: Body[] = [];
    void (async () => {
      for (;;) {
        const message: IMessage = await stomp.messages.next();
        const body = JSON.parse(message.body) as Body;
        all.push(body);
        (body.type === 'meeting.state' ? states : calls).push(body);
      }
    })();
    return {
      stomp,
      calls,
      states,
      all,
      send: (body: unknown) =>
        stomp.client.publish({
          destination: callDestination,
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
    };
  }
  type Party = Awaited<ReturnType<typeof join>>;

  /** A ringing meeting with both parties connected. */
  async function ringing() {
    const world = await createCalledVisitor(t);
    const started = await startMeeting(t, world.owner, world.session.id, world.tokenId);
    expect(started.statusCode, started.body).toBe(201);
    const meeting = started.json().data as { id: string };
    const staff = await join(world.owner);
    const visitor = await join(world.visitor);
    const meta = {
      sessionId: world.session.id,
      token: world.tokenId,
      email: '',
      meetingId: meeting.id,
    };
    const offer = (n = 0) => ({ type: 'offer', offer: { type: 'offer', sdp: `v=0 o=${n}` }, meta });
    const candidate = (n: number) => ({
      type: 'candidate',
      candidate: {
        candidate: `candidate:${n} 1 udp 1 127.0.0.1 ${4000 + n} typ host`,
        sdpMid: '0',
        sdpMLineIndex: 0,
      },
      meta,
    });
    const answer = { type: 'answer', answer: { type: 'answer', sdp: 'v=0 answer' }, meta };
    return { world, meeting, staff, visitor, meta, offer, candidate, answer };
  }

  async function stateOf(meetingId: string) {
    const [row] = await database.db.select().from(meetings).where(eq(meetings.id, meetingId));
    return row?.state;
  }

  /** The ERROR a refused SEND gets; the connection then closes. */
  async function refused(stomp: TestStomp) {
    const error = await stomp.errors.next();
    await stomp.closed;
    return { message: error.headers.message, body: error.body };
  }

  /** Proves nothing was forwarded to `receiver`: its next call is the sentinel `sender` sends now. */
  async function nothingForwarded(sender: Party, receiver: Party, sentinel: Body) {
    sender.send(sentinel);
    const { meta: _meta, ...expected } = sentinel;
    expect(await receiver.calls.next()).toMatchObject(expected);
  }

  it("forwards both parties' messages in order to the other only, and answer and exit move the meeting on", async () => {
    const { world, meeting, staff, visitor, offer, candidate, answer } = await ringing();
    const bystander = await join(await world.addStaff('admin'));

    staff.send(offer());
    for (let n = 1; n <= 5; n++) staff.send(candidate(n));
    const offered = await visitor.calls.next();
    // The server vouches for who sent it and which meeting it belongs to.
    expect(offered).toEqual({
      ...offer(),
      meta: { ...offer().meta, email: world.owner.email, meetingId: meeting.id },
    });
    for (let n = 1; n <= 5; n++) {
      expect((await visitor.calls.next()).candidate).toEqual(candidate(n).candidate);
    }

    visitor.send(answer);
    for (let n = 6; n <= 8; n++) visitor.send(candidate(n));
    expect(await staff.calls.next()).toMatchObject({
      type: 'answer',
      answer: answer.answer,
      meta: { email: world.visitor.email, meetingId: meeting.id },
    });
    for (let n = 6; n <= 8; n++) {
      expect((await staff.calls.next()).candidate).toEqual(candidate(n).candidate);
    }
    expect(await stateOf(meeting.id)).toBe('active');

    // Renegotiation (an ICE restart) may come from either side once active.
    visitor.send(offer(2));
    expect((await staff.calls.next()).offer).toEqual(offer(2).offer);

    staff.send({ type: 'exit', meta: offer().meta });
    expect((await visitor.calls.next()).type).toBe('exit');
    expect(await stateOf(meeting.id)).toBe('ended');

    // Both heard every state change, in order; nobody heard their own messages or others' calls.
    const states = (party: Party) =>
      party.all.filter((b) => b.type === 'meeting.state').map((b) => b.state);
    // (each state event follows the message that caused it)
    await vi.waitFor(() => {
      expect(states(staff)).toEqual(['active', 'ended']);
      expect(states(visitor)).toEqual(['active', 'ended']);
    });
    // The answer reaches the caller ahead of the state event it caused.
    expect(staff.all.slice(0, 2).map((b) => b.type)).toEqual(['answer', 'meeting.state']);
    expect(staff.all.filter((b) => b.type !== 'meeting.state').map((b) => b.type)).toEqual([
      'answer',
      'candidate',
      'candidate',
      'candidate',
      'offer',
    ]);
    expect(visitor.calls.size).toBe(0);
    expect(bystander.all).toEqual([]);
  });

  it('refuses strangers and third users with an ERROR, forwarding nothing', async () => {
    const { world, staff, visitor, offer, candidate } = await ringing();
    const stranger = await join(await createTestUser(t));
    const colleague = await join(await world.addStaff('admin'));
    for (const intruder of [stranger, colleague]) {
      intruder.send(offer());
      expect(await refused(intruder.stomp)).toEqual({
        message: 'Call refused',
        body: 'There is no meeting of yours for this call.',
      });
    }
    // Without the meeting's id, the token's meeting is looked up: still not theirs.
    const other = await join(await createTestUser(t));
    const { meetingId: _, ...meta } = offer().meta;
    other.send({ ...offer(), meta });
    expect((await refused(other.stomp)).body).toBe('There is no meeting of yours for this call.');
    await nothingForwarded(staff, visitor, candidate(1));
  });

  it('refuses a message naming another session or token than its meeting', async () => {
    const { world, staff, visitor, offer, candidate } = await ringing();
    const elsewhere = await createCalledVisitor(t);
    const mismatch = {
      message: 'Call refused',
      body: "This call names another session or token than its meeting's.",
    };
    staff.send({ ...offer(), meta: { ...offer().meta, sessionId: elsewhere.session.id } });
    expect(await refused(staff.stomp)).toEqual(mismatch);
    const again = await join(world.owner);
    again.send({ ...offer(), meta: { ...offer().meta, token: elsewhere.tokenId } });
    expect(await refused(again.stomp)).toEqual(mismatch);
    await nothingForwarded(await join(world.owner), visitor, candidate(2));
  });

  it.each([
    ['not JSON', '{"type":"offer"', 'A call message must be a JSON object.'],
    ['an unknown type', { type: 'hello' }, "type: Invalid discriminator value. Expected 'offer'"],
    ['no meta', { type: 'exit' }, 'Malformed call message: meta: Invalid input'],
    ['an offer without its sdp', 'offer-no-sdp', 'Malformed call message: offer.sdp'],
    ['a key the schema does not know', 'extra-key', 'Malformed call message'],
  ])(
    'refuses a malformed body (%s) with an ERROR, forwarding nothing',
    async (_name, body, says) => {
      const { world, staff, visitor, meta, candidate } = await ringing();
      const message =
        body === 'offer-no-sdp'
          ? { type: 'offer', offer: { type: 'offer' }, meta }
          : body === 'extra-key'
            ? { type: 'exit', meta, redirect: 'elsewhere' }
            : body;
      staff.send(message);
      const error = await refused(staff.stomp);
      expect(error.body).toContain(says);
      await nothingForwarded(await join(world.owner), visitor, candidate(3));
    },
  );

  it('refuses an oversized body, and a frame over the limit, forwarding nothing', async () => {
    const { world, staff, visitor, offer, candidate } = await ringing();
    const big = { ...offer(), offer: { type: 'offer', sdp: 'x'.repeat(callMessageMaxBytes) } };
    staff.send(big);
    expect(await refused(staff.stomp)).toEqual({
      message: 'Call refused',
      body: `A call message may be at most ${callMessageMaxBytes} bytes.`,
    });
    const second = await join(world.owner);
    second.send({ ...big, offer: { type: 'offer', sdp: 'x'.repeat(stompLimits.maxFrameBytes) } });
    expect((await refused(second.stomp)).message).toBe('Malformed frame');
    const third = await join(world.owner);
    await nothingForwarded(third, visitor, candidate(4));
  });

  it('refuses a flood on one connection with an ERROR and forwards nothing after it', async () => {
    const { world, staff, visitor, candidate } = await ringing();
    const flood = stompLimits.sendBurst * 4;
    for (let n = 0; n < flood; n++) staff.send(candidate(n));
    expect((await refused(staff.stomp)).message).toBe('Too many messages');
    // What went through is a prefix, in order, well short of the flood.
    const other = await join(world.owner);
    other.send({ type: 'exit', meta: candidate(0).meta });
    const got: number[] = [];
    for (;;) {
      const next = await visitor.calls.next();
      if (next.type === 'exit') break;
      got.push(Number(/candidate:(\d+)/.exec(JSON.stringify(next))?.[1]));
    }
    expect(got.length).toBeGreaterThanOrEqual(stompLimits.sendBurst - 1);
    expect(got.length).toBeLessThan(flood);
    expect(got).toEqual(got.map((_, i) => i));
  });

  it('refuses messages from the wrong side for the state, and anything once the meeting is over', async () => {
    const { world, meeting, staff, visitor, offer, candidate, answer } = await ringing();
    visitor.send(offer());
    expect((await refused(visitor.stomp)).body).toBe(
      'The visitor may not send "offer" while the meeting is ringing.',
    );
    staff.send(answer);
    expect((await refused(staff.stomp)).body).toBe(
      'The staff may not send "answer" while the meeting is ringing.',
    );
    const staff2 = await join(world.owner);
    staff2.send({ type: 'decline', meta: offer().meta });
    expect((await refused(staff2.stomp)).body).toBe(
      'The staff may not send "decline" while the meeting is ringing.',
    );
    expect(await stateOf(meeting.id)).toBe('ringing');

    const staff3 = await join(world.owner);
    const visitor2 = await join(world.visitor);
    staff3.send({ type: 'exit', meta: offer().meta });
    expect((await visitor2.calls.next()).type).toBe('exit');
    staff3.send(candidate(1));
    expect(await refused(staff3.stomp)).toEqual({
      message: 'Call refused',
      body: 'This meeting is over (ended).',
    });
    expect(await stateOf(meeting.id)).toBe('ended');
    expect(visitor2.calls.size).toBe(0);
  });

  it('forwards a decline to the caller, and both hear the meeting was declined', async () => {
    const { meeting, staff, visitor, offer } = await ringing();
    staff.send(offer());
    await visitor.calls.next();
    visitor.send({ type: 'decline', meta: offer().meta });
    expect(await staff.calls.next()).toMatchObject({
      type: 'decline',
      meta: { meetingId: meeting.id },
    });
    expect(await staff.states.next()).toMatchObject({ state: 'declined', meetingId: meeting.id });
    expect(await visitor.states.next()).toMatchObject({ state: 'declined', meetingId: meeting.id });
    expect(await stateOf(meeting.id)).toBe('declined');
  });

  it('after 45 s unanswered the call is missed: both sides hear it and a late answer is refused', async () => {
    const { world, meeting, staff, visitor, offer, answer } = await ringing();
    staff.send(offer());
    await visitor.calls.next();
    const visitorAgain = await join(world.visitor);
    now += meetingRingMs;
    visitor.send(answer);
    expect((await refused(visitor.stomp)).body).toBe(
      'This call was not answered in time (missed).',
    );
    expect(
      await sweepMissedCalls({ db: database.db, clock, publisher: t.app.realtime.publisher }),
    ).toBeGreaterThanOrEqual(1);
    for (const party of [staff, visitorAgain]) {
      expect(await party.states.next()).toMatchObject({ state: 'missed', meetingId: meeting.id });
    }
    expect(await stateOf(meeting.id)).toBe('missed');
    expect(staff.calls.size).toBe(0);
  });
});
