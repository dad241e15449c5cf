import { userEndpoints as endpoints } from '@upnext/contract/users';
import type { FastifyPluginAsync } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.ts';
import { getUserData, type UserDeps, updateProfile } from './users.service.ts';

export const userRoutes: FastifyPluginAsync<UserDeps> = async (app, deps) => {
  registerEndpoint(app, endpoints.getUserData, (request) =>
    getUserData(deps, request.caller, request.query.userId),
  );
  registerEndpoint(app, endpoints.updateProfile, (request) =>
    updateProfile(deps, request.caller, request.body),
  );
};
