import type { FastifyPluginAsync } from 'fastify';
import type { AuthContext } from '../auth/context.ts';
import type { AuthKeys } from '../auth/keys.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import type { EventPublisher } from '../lib/events.ts';
import type { Lifecycle } from '../lib/lifecycle.ts';
import { billingRoutes } from '../modules/billing/billing.routes.ts';
import { companyRoutes } from '../modules/companies/companies.routes.ts';
import type { InviteUser } from '../modules/companies/companies.service.ts';
import { createInviter } from '../modules/companies/inviter.ts';
import { meetingRoutes } from '../modules/meetings/meetings.routes.ts';
import { paymentRoutes } from '../modules/payments/payments.routes.ts';
import type { PaymentsRuntime } from '../modules/payments/providers.ts';
import { promotionRoutes } from '../modules/promotions/promotions.routes.ts';
import { queueRoutes } from '../modules/queues/queues.routes.ts';
import { reportRoutes } from '../modules/reports/reports.routes.ts';
import { requestRoutes } from '../modules/requests/requests.routes.ts';
import { sessionRoutes } from '../modules/sessions/sessions.routes.ts';
import { systemRoutes } from '../modules/system/system.routes.ts';
import { createBoardCache } from '../modules/tokens/tokens.board.ts';
import { tokensRoutes } from '../modules/tokens/tokens.routes.ts';
import { userRoutes } from '../modules/users/users.routes.ts';
import { visitRoutes } from '../modules/visits/visits.routes.ts';
import { createCallerResolver } from './caller.ts';

/** What every /api module gets: explicit dependencies, never globals. */
export type ApiDeps = {
  config: Config;
  database: Database;
  lifecycle: Lifecycle;
  clock: Clock;
  keys: AuthKeys;
  publisher: EventPublisher;
  /** The payment provider chosen at start (modules/payments/providers.ts). */
  payments: PaymentsRuntime;
  /** The auth service's context (server-side invites). */
  authService: AuthContext;
};

/**
 * The queue API under /api: every request first learns who is calling (`request.caller`;
 * a bad or revoked token is 401 before anything else runs), then the module routes.
 */
export const apiPlugin: FastifyPluginAsync<ApiDeps> = async (app, options) => {
  // Fastify hands the plugin its own registration options too (prefix); modules get deps only.
  const { config, database, lifecycle, clock, keys, payments, authService } = options;
  // Whatever a module announces on a session's topic drops that session's shared board.
  const boards = createBoardCache();
  const publisher = boards.forgetting(options.publisher);
  const deps: ApiDeps = {
    config,
    database,
    lifecycle,
    clock,
    keys,
    publisher,
    payments,
    authService,
  };
  const resolveCaller = createCallerResolver({
    db: deps.database.db,
    keys: deps.keys,
    auth: deps.config.auth,
    clock: deps.clock,
  });
  app.decorateRequest('caller', null as never);
  app.addHook('onRequest', async (request) => {
    request.caller = await resolveCaller(request.headers);
  });

  await app.register(systemRoutes, deps);
  await app.register(tokensRoutes, { ...deps, boards });
  await app.register(visitRoutes, deps);
  const db = deps.database.db;
  const inviteUser: InviteUser = createInviter({ db, auth: options.authService });
  await app.register(companyRoutes, { db, clock, inviteUser });
  await app.register(billingRoutes, { db, clock });
  await app.register(userRoutes, { db, clock });
  await app.register(queueRoutes, { db, clock });
  await app.register(promotionRoutes, { db, clock });
  await app.register(requestRoutes, { db, clock });
  await app.register(reportRoutes, { db });
  await app.register(sessionRoutes, deps);
  await app.register(meetingRoutes, { db, clock, publisher, ice: config.ice });
  await app.register(paymentRoutes, deps);
};
