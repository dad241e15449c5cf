import { requestEndpoints as endpoints } from '@upnext/contract/requests';
import type { FastifyPluginAsync } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.ts';
import * as service from './requests.service.ts';

export const requestRoutes: FastifyPluginAsync<service.RequestDeps> = async (app, deps) => {
  registerEndpoint(app, endpoints.listJoinRequests, (request) =>
    service.listJoinRequests(deps, request.caller, request.query),
  );
  registerEndpoint(app, endpoints.createJoinRequest, async (request, reply) => {
    const result = await service.createRequest(deps, request.caller, request.body);
    reply.code(result.created ? 201 : 200);
    return result.request;
  });
  registerEndpoint(app, endpoints.decideJoinRequest, (request) =>
    service.decideRequest(deps, request.caller, request.params.requestId, request.body.status),
  );
  registerEndpoint(app, endpoints.withdrawJoinRequest, async (request) => {
    await service.withdrawRequest(deps, request.caller, request.params.requestId);
    return { ok: true as const };
  });
};
