import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { callDestination, topics } from '@upnext/contract/realtime-topics';
import { eq, inArray } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  companies,
  companyUsers,
  joinRequests,
  meetings,
  payments,
  queues,
  queueTokens,
  sessionServices,
  sessions,
  slots,
} from '../../db/schema/index.ts';
import {
  connectStomp,
  giveProfile,
  listen,
  subscribeOutcome,
  wssUrl,
} from '../../realtime/testing.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { type MatrixActor, matrixActors, statuses } from '../../test/authorization.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../test/database.ts';
import { createLiveSession } from '../../test/live-session.ts';
import { createTestUser, type TestUser } from '../../test/users.ts';

/**
 * The authorisation matrix of the live queue (tokens, board, meetings), the invitations, the
 * system routes and every STOMP destination, for every kind of caller: the company's owner,
 * an admin, staff assigned to the session's sub-queue, staff of another sub-queue, a member of
 * another company, a private queue's approved requester, a signed-in visitor and an anonymous
 * caller. Each refusal is checked for its status and code, and for changing nothing. The last
 * tests derive the routes from the app's OpenAPI document and the destinations from the
 * contract, so a route or topic without a matrix row (here or in the other matrix files) fails.
 */

type Live = Awaited<ReturnType<typeof createLiveSession>>;
type Scene = 'public' | 'private';
type Scenery = Live & { people: Record<MatrixActor, TestUser | undefined> };

/** The matrix files whose rows, together, must cover every /api route. */
const matrixFiles = [
  'modules/access/live.authorization.int.test.ts',
  'modules/authorization.int.test.ts',
  'modules/sessions/sessions.authorization.int.test.ts',
];

type Request = { method: InjectOptions['method']; url: string; payload?: object };
type Case = {
  name: string;
  scene: Scene;
  /** Sets the scene (a token, a booking, a meeting...) and builds the request. */
  request: (live: Scenery, actor: MatrixActor) => Promise<Request> | Request;
  expect: Record<MatrixActor, number>;
  /** The code of any other refusal, a 404's by default (401 unauthorized, 403 forbidden). */
  notFound?: string;
};

describe.each(testDrivers)('authorisation matrix of the live queue and realtime (%s)', (driver) => {
  let database: TestDatabase;
  let t: TestApp;
  let base: string;
  const scenes = {} as Record<Scene, Scenery>;
  let visitorSubscribeId: string;
  let privateVisitKey: string;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    t = await buildTestApp(database);
    base = await listen(t.app);
    const options = {
      mode: 'hybrid',
      capacity: 900,
      tokensPerVisitor: 20,
      slots: { slotMinutes: 30, capacityPerSlot: 20 },
    } as const;
    const pub = await createLiveSession(t, options);
    const priv = await createLiveSession(t, { ...options, visibility: 'private' });
    const requester = await createTestUser(t);
    const visitor = await createTestUser(t);
    visitorSubscribeId = await giveProfile(database.db, visitor.userId);
    await database.db.insert(joinRequests).values({
      queueId: priv.queue.id,
      userId: requester.userId,
      status: 'approved',
    });
    await database.db
      .update(queues)
      .set({ online: true })
      .where(inArray(queues.id, [pub.queue.id, priv.queue.id]));
    for (const [scene, live, other] of [
      ['public', pub, priv],
      ['private', priv, pub],
    ] as const) {
      scenes[scene] = {
        ...live,
        people: {
          owner: live.owner,
          admin: await live.addStaff('admin'),
          assigned: await live.addStaff('staff'),
          unassigned: await live.addStaff('staff', { assigned: false }),
          // The owner of the other scene's company: a member, but not of this one.
          outsider: other.owner,
          requester,
          visitor,
          anonymous: undefined,
        },
      };
    }
    privateVisitKey = await keyIn(priv);
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  const inject = (user: TestUser | undefined, spec: Request) =>
    t.app.inject({
      method: spec.method,
      url: `/api${spec.url}`,
      headers: user?.headers ?? {},
      ...(spec.payload ? { payload: spec.payload } : {}),
    });

  /** A token of a fresh visitor: waiting, called (or served), optionally a booking. */
  let slotTurn = 0;
  async function tokenIn(
    live: Live,
    options: {
      status?: 'waiting' | 'called' | 'served';
      booking?: boolean;
      /** Who called it (start and complete are theirs). */
      calledBy?: TestUser | undefined;
    } = {},
  ) {
    const holder = await createTestUser(t);
    await giveProfile(database.db, holder.userId);
    // Private queues' visitors hold an approved request.
    await database.db
      .insert(joinRequests)
      .values({ queueId: live.queue.id, userId: holder.userId, status: 'approved' });
    const taken = options.booking
      ? await inject(holder, {
          method: 'POST',
          url: '/queues/sessions/slots/tokens',
          payload: { serviceId: live.serviceId, slotNo: live.futureSlotNo + (slotTurn++ % 6) },
        })
      : await inject(holder, {
          method: 'POST',
          url: '/queues/sessions/tokens',
          payload: { sessionId: live.session.id },
        });
    expect(taken.statusCode, taken.body).toBe(201);
    const id = taken.json().data.id as string;
    const status = options.status ?? 'waiting';
    if (status !== 'waiting') {
      const now = new Date();
      await database.db
        .update(queueTokens)
        .set({
          status,
          calledAt: now,
          calledBy: options.calledBy?.userId ?? null,
          completedAt: status === 'served' ? now : null,
        })
        .where(eq(queueTokens.id, id));
    }
    return id;
  }

  /** The status link's key of a fresh visitor's waiting token. */
  async function keyIn(live: Live) {
    const id = await tokenIn(live);
    const [row] = await database.db
      .select({ key: queueTokens.statusKey })
      .from(queueTokens)
      .where(eq(queueTokens.id, id));
    return row?.key ?? '';
  }

  async function meetingIn(live: Live) {
    const tokenId = await tokenIn(live, { status: 'called' });
    const started = await inject(live.owner, {
      method: 'POST',
      url: '/meetings',
      payload: { sessionId: live.session.id, tokenId },
    });
    expect(started.statusCode, started.body).toBe(201);
    return started.json().data.id as string;
  }

  /** Everything a refused call could have changed. */
  async function state(live: Live) {
    const db = database.db;
    return {
      session: await db.select().from(sessions).where(eq(sessions.id, live.session.id)),
      tokens: await db
        .select()
        .from(queueTokens)
        .where(eq(queueTokens.sessionId, live.session.id))
        .orderBy(queueTokens.number),
      slots: await db
        .select()
        .from(slots)
        .innerJoin(sessionServices, eq(sessionServices.id, slots.sessionServiceId))
        .where(eq(sessionServices.sessionId, live.session.id))
        .orderBy(slots.slotNo),
      meetings: await db.select().from(meetings).orderBy(meetings.id),
      members: await db
        .select()
        .from(companyUsers)
        .where(eq(companyUsers.companyId, live.company.id))
        .orderBy(companyUsers.id),
    };
  }

  // Expectations by rule (in `matrixActors` order).
  const readers = {
    public: statuses(200, 200, 200, 200, 200, 200, 200, 401),
    private: statuses(200, 200, 200, 200, 200, 200, 200, 401),
  };
  const runners = (ok: number) => ({
    public: statuses(ok, ok, ok, 403, 403, 403, 403, 401),
    private: statuses(ok, ok, ok, 403, 404, 403, 404, 401),
  });
  const members = {
    public: statuses(200, 200, 200, 200, 403, 403, 403, 401),
    private: statuses(200, 200, 200, 200, 404, 403, 404, 401),
  };
  const takers = {
    public: statuses(201, 201, 201, 201, 201, 201, 201, 401),
    private: statuses(201, 201, 201, 201, 404, 201, 404, 401),
  };
  const both = (
    name: string,
    expectations: Record<Scene, Record<MatrixActor, number>>,
    spec: Omit<Case, 'name' | 'scene' | 'expect'>,
  ): Case[] => [
    { name, scene: 'public', expect: expectations.public, ...spec },
    { name: `${name} (private queue)`, scene: 'private', expect: expectations.private, ...spec },
  ];
  const post = (url: string, payload: object): Request => ({ method: 'POST', url, payload });

  /** A paid visit payment of the matrix's visitor (a token of theirs, paid £25 on the sandbox). */
  async function paymentOfVisitor(live: Scenery) {
    const visitor = live.people.visitor as TestUser;
    const now = new Date();
    const [token] = await database.db
      .insert(queueTokens)
      .values({
        sessionId: live.session.id,
        number: 100_000 + Math.floor(Math.random() * 800_000),
        displayNumber: 'PAY',
        kind: 'walk_in',
        userId: visitor.userId,
        status: 'served',
        joinedAt: now,
        updatedAt: now,
      })
      .returning();
    const [payment] = await database.db
      .insert(payments)
      .values({
        companyId: live.company.id,
        kind: 'visit',
        tokenId: token?.id,
        payerUserId: visitor.userId,
        listAmountMinor: 2500,
        amountMinor: 2500,
        currency: 'GBP',
        provider: 'sandbox',
        providerRef: `cs_sbx_matrix_${crypto.randomUUID()}`,
        status: 'paid',
        expiresAt: now,
        paidAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return payment?.id as string;
  }
  const unknownCheckout = 'cs_sbx_0000000000000000-not-a-signature';

  const cases: Case[] = [
    ...both('POST /queues/sessions/tokens', takers, {
      request: (live) => post('/queues/sessions/tokens', { sessionId: live.session.id }),
    }),
    // Staff issue for a walk-in only in sessions they run; a visitor's name is just their own.
    ...both(
      'POST /queues/sessions/tokens (walk-in)',
      {
        public: statuses(201, 201, 201, 403, 201, 201, 201, 401),
        private: statuses(201, 201, 201, 403, 404, 201, 404, 401),
      },
      {
        request: (live) =>
          post('/queues/sessions/tokens', { sessionId: live.session.id, visitorName: 'Walk In' }),
      },
    ),
    ...both('POST /queues/sessions/slots/tokens', takers, {
      request: (live, actor) =>
        post('/queues/sessions/slots/tokens', {
          serviceId: live.serviceId,
          slotNo: live.futureSlotNo + matrixActors.indexOf(actor),
        }),
    }),
    ...both('POST /queues/sessions/tokens-query', readers, {
      request: (live) => post('/queues/sessions/tokens-query', { sessionId: live.session.id }),
    }),
    ...both('POST /queues/sessions/slots/tokens-query', readers, {
      request: (live) =>
        post('/queues/sessions/slots/tokens-query', { sessionId: live.session.id }),
    }),
    ...both('GET /queues/sessions/{sessionId}/slots/{slotNo}/tokens', members, {
      request: (live) => ({
        method: 'GET',
        url: `/queues/sessions/${live.session.id}/slots/${live.futureSlotNo}/tokens`,
      }),
    }),
    ...both(
      'GET /queues/sessions/slots/booking-details',
      {
        public: statuses(200, 200, 200, 200, 404, 404, 404, 401),
        private: statuses(200, 200, 200, 200, 404, 404, 404, 401),
      },
      {
        request: async (live) => ({
          method: 'GET',
          url: `/queues/sessions/slots/booking-details?tokenId=${await tokenIn(live, { booking: true })}`,
        }),
        notFound: 'token_not_found',
      },
    ),
    ...(
      ['/queues/sessions/tokens-cancel', '/queues/sessions/slots/tokens-cancel'] as const
    ).flatMap((url) =>
      both(
        `POST ${url}`,
        {
          public: statuses(200, 200, 200, 403, 404, 404, 404, 401),
          private: statuses(200, 200, 200, 403, 404, 404, 404, 401),
        },
        {
          request: async (live) =>
            post(url, { tokenId: await tokenIn(live, { booking: url.includes('slots') }) }),
          notFound: 'token_not_found',
        },
      ),
    ),
    // Moving a booking: its holder (not a matrix actor here) and those who run the session.
    ...both(
      'POST /queues/sessions/slots/tokens-reschedule',
      {
        public: statuses(200, 200, 200, 403, 404, 404, 404, 401),
        private: statuses(200, 200, 200, 403, 404, 404, 404, 401),
      },
      {
        request: async (live) =>
          post('/queues/sessions/slots/tokens-reschedule', {
            tokenId: await tokenIn(live, { booking: true }),
            serviceId: live.serviceId,
            slotNo: live.futureSlotNo + 7,
          }),
        notFound: 'token_not_found',
      },
    ),
    ...both(
      'GET /queues/sessions/{sessionId}/board',
      {
        public: statuses(200, 200, 200, 200, 200, 200, 200, 200),
        private: statuses(200, 200, 200, 200, 404, 200, 404, 404),
      },
      { request: (live) => ({ method: 'GET', url: `/queues/sessions/${live.session.id}/board` }) },
    ),
    // A branch board: whoever may see the queue sees its sessions of today.
    ...both(
      'GET /queues/{queueId}/board',
      {
        public: statuses(200, 200, 200, 200, 200, 200, 200, 200),
        private: statuses(200, 200, 200, 200, 404, 200, 404, 404),
      },
      {
        request: (live) => ({ method: 'GET', url: `/queues/${live.queue.id}/board` }),
        notFound: 'not_found',
      },
    ),
    // A status link's key is its credential: whoever holds it, signed in or not, as its holder.
    ...both(
      'GET /visits/{key}',
      {
        public: statuses(200, 200, 200, 200, 200, 200, 200, 200),
        private: statuses(200, 200, 200, 200, 200, 200, 200, 200),
      },
      { request: async (live) => ({ method: 'GET', url: `/visits/${await keyIn(live)}` }) },
    ),
    ...both(
      'POST /visits/{key}/leave',
      {
        public: statuses(200, 200, 200, 200, 200, 200, 200, 200),
        private: statuses(200, 200, 200, 200, 200, 200, 200, 200),
      },
      { request: async (live) => post(`/visits/${await keyIn(live)}/leave`, {}) },
    ),
    ...both('POST /queues/sessions/next-token', runners(200), {
      request: async (live) => {
        await tokenIn(live);
        return post('/queues/sessions/next-token', { sessionId: live.session.id });
      },
    }),
    ...(['recall', 'no-show', 'start', 'complete', 'requeue', 'take-over'] as const).flatMap(
      (action) =>
        both(`POST /queues/sessions/tokens/{tokenId}/{action} (${action})`, runners(200), {
          request: async (live, actor) => {
            const calledBy = live.people[actor];
            const tokenId = await tokenIn(live, { status: 'called', calledBy });
            return post(`/queues/sessions/tokens/${tokenId}/${action}`, {});
          },
        }),
    ),
    ...both('POST /queues/sessions/service-time', runners(200), {
      request: async (live) =>
        post('/queues/sessions/service-time', {
          tokenId: await tokenIn(live, { status: 'served' }),
          seconds: 90,
        }),
    }),
    ...both(
      'POST /queues/sessions/service-time-query',
      {
        public: statuses(200, 200, 200, 200, 403, 403, 403, 401),
        private: statuses(200, 200, 200, 200, 403, 403, 403, 401),
      },
      {
        request: (live) =>
          post('/queues/sessions/service-time-query', { sessionId: live.session.id }),
      },
    ),
    ...both('POST /meetings', runners(201), {
      request: async (live) =>
        post('/meetings', {
          sessionId: live.session.id,
          tokenId: await tokenIn(live, { status: 'called' }),
        }),
    }),
    {
      name: 'GET /meetings',
      scene: 'public',
      expect: readers.public,
      request: () => ({ method: 'GET', url: '/meetings?mine=true' }),
    },
    // Payments ----------------------------------------------------------------------------
    {
      name: 'POST /payment-gateway/payment',
      scene: 'public',
      // A company's plan is bought by its owner only; to non-members the company is unknown.
      expect: statuses(201, 403, 403, 403, 404, 404, 404, 401),
      notFound: 'not_found',
      request: (live) =>
        post('/payment-gateway/payment', { plan: 'pro', companyId: live.company.id }),
    },
    {
      name: 'GET /payments/{paymentId}',
      scene: 'public',
      // The payer and the company's managers; to anyone else it does not exist.
      expect: statuses(200, 200, 404, 404, 404, 404, 200, 401),
      notFound: 'payment_not_found',
      request: async (live) => ({
        method: 'GET',
        url: `/payments/${await paymentOfVisitor(live)}`,
      }),
    },
    {
      name: 'GET /company/{companyId}/payments',
      scene: 'public',
      expect: statuses(200, 200, 403, 403, 404, 404, 404, 401),
      notFound: 'not_found',
      request: (live) => ({ method: 'GET', url: `/company/${live.company.id}/payments` }),
    },
    {
      name: 'POST /payments/{paymentId}/refund',
      scene: 'public',
      // Managers refund; the payer sees the payment but may not refund it; others never see it.
      expect: statuses(200, 200, 404, 404, 404, 404, 403, 401),
      notFound: 'payment_not_found',
      request: async (live) => post(`/payments/${await paymentOfVisitor(live)}/refund`, {}),
    },
    {
      name: 'POST /company/{companyId}/billing/cancel',
      scene: 'public',
      expect: statuses(200, 403, 403, 403, 404, 404, 404, 401),
      notFound: 'not_found',
      request: async (live) => {
        // A paid plan with a period to run out (the fixture's plan is granted, not billed).
        await database.db
          .update(companies)
          .set({ planRenewsAt: new Date(Date.now() + 86_400_000), planCancelsAtPeriodEnd: false })
          .where(eq(companies.id, live.company.id));
        return post(`/company/${live.company.id}/billing/cancel`, {});
      },
    },
    {
      name: 'POST /payment-gateway/webhooks/{provider}',
      scene: 'public',
      // Public, but only a provider's signature is believed.
      expect: statuses(400, 400, 400, 400, 400, 400, 400, 400),
      notFound: 'webhook_invalid',
      request: () =>
        post('/payment-gateway/webhooks/sandbox', { id: 'evt_forged', type: 'checkout.paid' }),
    },
    ...(
      [
        ['GET', ''],
        ['POST', '/pay'],
        ['POST', '/confirm'],
        ['POST', '/cancel'],
      ] as const
    ).map(
      ([method, suffix]): Case => ({
        name: `${method} /payment-gateway/sandbox/checkouts/{checkoutId}${suffix}`,
        scene: 'public',
        // The checkout page's API is public; a checkout exists only behind its signed id.
        expect: statuses(404, 404, 404, 404, 404, 404, 404, 404),
        notFound: 'checkout_not_found',
        request: () => {
          const url = `/payment-gateway/sandbox/checkouts/${unknownCheckout}${suffix}`;
          if (method === 'GET') return { method, url };
          if (suffix === '/pay') {
            return post(url, {
              number: '4242424242424242',
              expiry: '12/40',
              cvc: '123',
              name: 'A',
            });
          }
          return post(url, suffix === '/confirm' ? { confirmationToken: 'x', approve: true } : {});
        },
      }),
    ),
    ...(
      [
        ['GET', '/meetings/{meetingId}', ''],
        ['GET', '/meetings/{meetingId}/ice-servers', '/ice-servers'],
        ['POST', '/meetings/{meetingId}/end', '/end'],
      ] as const
    ).map(
      ([method, path, suffix]): Case => ({
        name: `${method} ${path}`,
        scene: 'public',
        // Only its two parties (here the owner who rang) know a meeting exists.
        expect: statuses(200, 404, 404, 404, 404, 404, 404, 401),
        notFound: 'meeting_not_found',
        request: async (live) => {
          const url = `/meetings/${await meetingIn(live)}${suffix}`;
          return method === 'GET' ? { method, url } : post(url, {});
        },
      }),
    ),
    {
      name: 'GET /user/invitations',
      scene: 'public',
      expect: readers.public,
      request: () => ({ method: 'GET', url: '/user/invitations' }),
    },
    ...(['accept', 'decline'] as const).map(
      (answer): Case => ({
        // Someone else's invitation: nobody but its invitee may answer it.
        name: `POST /user/invitations/{companyId}/${answer}`,
        scene: 'public',
        expect: statuses(404, 404, 404, 404, 404, 404, 404, 401),
        notFound: 'invitation_not_found',
        request: async (live) => {
          const invitee = await createTestUser(t);
          await database.db.insert(companyUsers).values({
            companyId: live.company.id,
            userId: invitee.userId,
            email: invitee.email,
            role: 'staff',
            status: 'invited',
          });
          return post(`/user/invitations/${live.company.id}/${answer}`, {});
        },
      }),
    ),
    ...(['/health', '/ready', '/client-config'] as const).map(
      (url): Case => ({
        name: `GET ${url}`,
        scene: 'public',
        expect: statuses(200, 200, 200, 200, 200, 200, 200, 200),
        request: () => ({ method: 'GET', url }),
      }),
    ),
  ];

  for (const testCase of cases) {
    for (const actor of matrixActors) {
      const status = testCase.expect[actor];
      it(`${testCase.name} as ${actor} -> ${status}`, async () => {
        const live = scenes[testCase.scene];
        const spec = await testCase.request(live, actor);
        const before = await state(live);
        const response = await inject(live.people[actor], spec);
        expect(response.statusCode, response.body).toBe(status);
        if (status < 400) return;
        const code =
          status === 401
            ? 'unauthorized'
            : status === 403
              ? 'forbidden'
              : (testCase.notFound ?? 'session_not_found');
        expect(response.json()).toEqual({ error: expect.objectContaining({ code }) });
        expect(await state(live)).toEqual(before);
      });
    }
  }

  // STOMP ------------------------------------------------------------------------------------

  type Destination = {
    name: string;
    scene: Scene;
    destination: () => string;
    expect: Record<MatrixActor, boolean>;
  };
  const onlyVisitor = statuses(0, 0, 0, 0, 0, 0, 1, 0);
  const yes = (flags: Record<MatrixActor, number>) =>
    Object.fromEntries(matrixActors.map((actor) => [actor, flags[actor] === 1])) as Record<
      MatrixActor,
      boolean
    >;
  const destinations: Destination[] = [
    {
      name: "SUBSCRIBE /topic/user/{subscribeId} (the visitor's)",
      scene: 'public',
      destination: () => topics.user(visitorSubscribeId),
      expect: yes(onlyVisitor),
    },
    {
      name: "SUBSCRIBE /topic/meeting/{subscribeId} (the visitor's)",
      scene: 'public',
      destination: () => topics.meeting(visitorSubscribeId),
      expect: yes(onlyVisitor),
    },
    {
      name: 'SUBSCRIBE /topic/session/{sessionId}',
      scene: 'public',
      destination: () => topics.session(scenes.public.session.id),
      expect: yes(statuses(1, 1, 1, 1, 1, 1, 1, 1)),
    },
    {
      name: 'SUBSCRIBE /topic/session/{sessionId} (private queue)',
      scene: 'private',
      destination: () => topics.session(scenes.private.session.id),
      expect: yes(statuses(1, 1, 1, 1, 0, 1, 0, 0)),
    },
    {
      name: 'SUBSCRIBE /topic/visit/{key} (a private queue’s token)',
      scene: 'private',
      destination: () => topics.visit(privateVisitKey),
      expect: yes(statuses(1, 1, 1, 1, 1, 1, 1, 1)),
    },
  ];

  for (const { name, scene, destination, expect: allowed } of destinations) {
    for (const actor of matrixActors) {
      it(`${name} as ${actor} -> ${allowed[actor] ? 'subscribed' : 'refused'}`, async () => {
        const user = scenes[scene].people[actor];
        expect(await subscribeOutcome(base, user?.accessToken, destination())).toBe(
          allowed[actor] ? 'subscribed' : 'refused',
        );
      });
    }
  }

  for (const actor of matrixActors) {
    it(`SEND ${callDestination} as ${actor}: refused without a meeting of theirs`, async () => {
      const user = scenes.public.people[actor];
      const stomp = await connectStomp(wssUrl(base, user?.accessToken));
      try {
        stomp.client.publish({ destination: callDestination, body: JSON.stringify({}) });
        const error = await stomp.errors.next();
        // Anonymous callers are stopped at the destination; others by the call rule.
        if (actor === 'anonymous') expect(error.body).toContain('Sign in to place calls');
        else expect(error.headers.message).not.toBe('Access denied');
      } finally {
        await stomp.close();
      }
    });
  }

  // Completeness -----------------------------------------------------------------------------

  /** `METHOD /path` with path variables unnamed, as rows and the OpenAPI document spell them. */
  const routeKey = (method: string, path: string) =>
    `${method.toUpperCase()} ${path.replace(/^\/api/, '').replace(/\{[^}]+\}/g, '{}')}`;

  it('has a matrix row for every /api route the app serves', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const paths = response.json().paths as Record<string, Record<string, unknown>>;
    const served = Object.entries(paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => routeKey(method, path)),
    );
    expect(served.length).toBeGreaterThan(60);
    const covered = new Set<string>();
    for (const file of matrixFiles) {
      const source = await readFile(join(import.meta.dirname, '../..', file), 'utf8');
      for (const match of source.matchAll(/name: [`'"](GET|POST|PATCH|DELETE) (\/[^\s'"`?]*)/g)) {
        covered.add(routeKey(match[1] as string, match[2] as string));
      }
    }
    for (const testCase of cases) {
      const [method, path] = testCase.name.split(' ');
      covered.add(routeKey(method as string, path as string));
    }
    expect(served.filter((route) => !covered.has(route))).toEqual([]);
  });

  it('has matrix rows for every STOMP destination of the contract', () => {
    const named = destinations.map((d) => d.name);
    for (const kind of Object.keys(topics)) {
      expect(named.some((name) => name.startsWith(`SUBSCRIBE /topic/${kind}/`))).toBe(true);
    }
    expect(callDestination).toBe('/app/call');
  });
});
