import { visitEndpoints as endpoints } from '@upnext/contract/visits';
import type { FastifyPluginAsync } from 'fastify';
import type { ApiDeps } from '../../http/api.ts';
import { registerEndpoint } from '../../http/endpoint.ts';
import { tokensDepsOf } from '../tokens/tokens.routes.ts';
import * as service from './visits.service.ts';

/** A token's status link: public, the key in the path is the credential. */
export const visitRoutes: FastifyPluginAsync<ApiDeps> = async (app, options) => {
  const deps = tokensDepsOf(options);
  registerEndpoint(app, endpoints.visit, (request) => service.visit(deps, request.params.key));
  registerEndpoint(app, endpoints.leaveVisit, (request) =>
    service.leaveVisit(deps, request.params.key),
  );
};
