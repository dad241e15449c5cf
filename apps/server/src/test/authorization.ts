import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { companies, companyUsers } from '../db/schema/companies.ts';
import { joinRequests } from '../db/schema/queues.ts';
import type { TestApp } from './app.ts';
import { createTestUser, type TestUser } from './users.ts';

/**
 * Reusable authorisation matrix: every route × every kind of caller, proving the status, that
 * refused answers are bare error envelopes leaking nothing, and that refused writes change
 * nothing. Extend `MatrixCase`s for new routes; the actors stay the same.
 */
export const matrixActors = [
  'owner',
  'admin',
  /** Staff assigned to the sub-queue of the session (or queue) at hand. */
  'assigned',
  /** Staff of the company assigned to no sub-queue: they read but do not run sessions. */
  'unassigned',
  /** A member (owner) of another company. */
  'outsider',
  /** A signed-in user with an approved request to the private queue at hand. */
  'requester',
  /** A signed-in user with no role anywhere. */
  'visitor',
  'anonymous',
] as const;
export type MatrixActor = (typeof matrixActors)[number];

export type MatrixWorld = {
  t: TestApp;
  companyId: string;
  /** Another company; `outsider` is its owner and has no role in `companyId`. */
  otherCompanyId: string;
  users: Record<Exclude<MatrixActor, 'anonymous'>, TestUser>;
  headers: (actor: MatrixActor) => Record<string, string>;
  /** Makes `requester` an approved requester of a (private) queue. */
  approveRequester: (queueId: string) => Promise<void>;
};

/**
 * A company with an owner, an admin and two staff members (the test assigns `assigned` to its
 * sub-queues), a signed-in visitor, a would-be requester, and an outsider.
 */
export async function createMatrixWorld(t: TestApp): Promise<MatrixWorld> {
  const db = t.database.db;
  const [company, other] = await db
    .insert(companies)
    .values([
      {
        name: 'Matrix Clinic',
        slug: `matrix-${crypto.randomUUID().slice(0, 8)}`,
        timezone: 'Europe/London',
        // The matrix is about who may act, not about plan limits.
        plan: 'business' as const,
      },
      {
        name: 'Other Clinic',
        slug: `other-${crypto.randomUUID().slice(0, 8)}`,
        timezone: 'Europe/Paris',
      },
    ])
    .returning();
  if (!company || !other) throw new Error('companies not created');
  const users = {
    owner: await createTestUser(t),
    admin: await createTestUser(t),
    assigned: await createTestUser(t),
    unassigned: await createTestUser(t),
    requester: await createTestUser(t),
    visitor: await createTestUser(t),
    outsider: await createTestUser(t),
  };
  const member = (user: TestUser, companyId: string, role: 'owner' | 'admin' | 'staff') => ({
    companyId,
    userId: user.userId,
    email: user.email,
    role,
    status: 'active' as const,
  });
  await db
    .insert(companyUsers)
    .values([
      member(users.owner, company.id, 'owner'),
      member(users.admin, company.id, 'admin'),
      member(users.assigned, company.id, 'staff'),
      member(users.unassigned, company.id, 'staff'),
      member(users.outsider, other.id, 'owner'),
    ]);
  return {
    t,
    companyId: company.id,
    otherCompanyId: other.id,
    users,
    headers: (actor) => (actor === 'anonymous' ? {} : users[actor].headers),
    approveRequester: async (queueId) => {
      await db
        .insert(joinRequests)
        .values({ queueId, userId: users.requester.userId, status: 'approved' });
    },
  };
}

type MatrixRequest = {
  method: InjectOptions['method'];
  url: string;
  payload?: unknown;
};

export type MatrixCase = {
  /** "PATCH /company/{id}" */
  name: string;
  /** Builds the request; may create a fresh target first (so earlier successes do not interfere). */
  request: (world: MatrixWorld, actor: MatrixActor) => Promise<MatrixRequest> | MatrixRequest;
  expect: Record<MatrixActor, number>;
  /** Error code by refused status, over the defaults 401 `unauthorized`, 403 `forbidden`. */
  codes?: Partial<Record<number, string>>;
  /** State that a refused call must leave untouched (e.g. the rows the route writes). */
  snapshot?: (world: MatrixWorld) => Promise<unknown>;
  /** Strings that must not appear in refused answers (names, codes, emails of hidden things). */
  secrets?: (world: MatrixWorld) => string[];
  /** Extra checks on a successful answer, e.g. that visitors do not see staff assignments. */
  check?: (response: LightMyRequestResponse, actor: MatrixActor, world: MatrixWorld) => void;
};

const defaultCodes: Partial<Record<number, string>> = { 401: 'unauthorized', 403: 'forbidden' };

/** Registers one test per case and actor. Call inside a `describe` that sets up the world. */
export function authorizationMatrix(cases: MatrixCase[], getWorld: () => MatrixWorld): void {
  for (const testCase of cases) {
    for (const actor of matrixActors) {
      const status = testCase.expect[actor];
      it(`${testCase.name} as ${actor} -> ${status}`, async () => {
        const world = getWorld();
        const spec = await testCase.request(world, actor);
        const before = testCase.snapshot ? await testCase.snapshot(world) : undefined;
        const response = await world.t.app.inject({
          method: spec.method,
          url: spec.url,
          headers: world.headers(actor),
          ...(spec.payload === undefined ? {} : { payload: spec.payload as object }),
        });
        expect(response.statusCode, response.body).toBe(status);
        const body = response.json() as Record<string, unknown>;
        if (status >= 400) {
          expect(Object.keys(body)).toEqual(['error']);
          const code = { ...defaultCodes, ...testCase.codes }[status];
          expect(body.error).toEqual(expect.objectContaining({ code }));
          for (const secret of testCase.secrets?.(world) ?? []) {
            expect(response.body).not.toContain(secret);
          }
          if (testCase.snapshot) expect(await testCase.snapshot(world)).toEqual(before);
        } else {
          expect(body).toHaveProperty('data');
          testCase.check?.(response, actor, world);
        }
      });
    }
  }
}

/** Shorthand for expectations, in `matrixActors` order. */
export function statuses(
  owner: number,
  admin: number,
  assigned: number,
  unassigned: number,
  outsider: number,
  requester: number,
  visitor: number,
  anonymous: number,
): Record<MatrixActor, number> {
  return { owner, admin, assigned, unassigned, outsider, requester, visitor, anonymous };
}
