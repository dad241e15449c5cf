import { sessionEndpoints as endpoints } from '@upnext/contract/sessions';
import type { FastifyPluginAsync } from 'fastify';
import { hasSmsPath } from '../../auth/sms.ts';
import type { ApiDeps } from '../../http/api.ts';
import { registerEndpoint } from '../../http/endpoint.ts';
import * as service from './sessions.service.ts';

/** Sessions, their services and slots (spec §7 paths; PRODUCT.md rules). */
export const sessionRoutes: FastifyPluginAsync<ApiDeps> = async (
  app,
  { config, database, clock, publisher, payments },
) => {
  const deps: service.SessionsDeps = {
    db: database.db,
    clock,
    publisher,
    publicUrl: config.publicUrl,
    smsEnabled: hasSmsPath(config),
    payments,
  };

  registerEndpoint(app, endpoints.scheduleSessions, async (request, reply) => {
    const data = await service.scheduleSessions(deps, request.caller, request.body);
    reply.code(data.preview ? 200 : 201);
    return data;
  });
  registerEndpoint(app, endpoints.editSessions, async (request) => ({
    sessions: await service.editSessions(deps, request.caller, request.body),
  }));
  registerEndpoint(app, endpoints.deleteSessions, async (request) => ({
    deletedIds: await service.deleteSessions(deps, request.caller, request.body),
  }));
  registerEndpoint(app, endpoints.setSessionStatus, (request) =>
    service.changeSessionStatus(deps, request.caller, request.body),
  );
  registerEndpoint(app, endpoints.listQueueSessions, (request) =>
    service.listQueueSessions(deps, request.caller, request.params.queueId, request.query),
  );
  registerEndpoint(app, endpoints.getSession, (request) =>
    service.getSession(deps, request.caller, request.params.queueId, request.params.sessionId),
  );
  registerEndpoint(app, endpoints.mySessions, (request) =>
    service.mySessions(deps, request.caller, request.query.date),
  );
  registerEndpoint(app, endpoints.querySessions, (request) =>
    service.querySessions(deps, request.caller, request.body),
  );
  registerEndpoint(app, endpoints.listSessionServices, (request) =>
    service.listServices(deps, request.caller, request.params.sessionId),
  );
  registerEndpoint(app, endpoints.addSessionService, (request) =>
    service.addService(deps, request.caller, request.params.sessionId, request.body),
  );
  registerEndpoint(app, endpoints.listSlots, (request) =>
    service.listSlots(deps, request.caller, request.params.serviceId),
  );
  registerEndpoint(app, endpoints.setSlotsStatus, (request) =>
    service.setSlotsStatus(deps, request.caller, request.body),
  );
};
