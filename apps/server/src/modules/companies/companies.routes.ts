import { companyEndpoints as endpoints } from '@upnext/contract/companies';
import type { FastifyPluginAsync } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.ts';
import { requestLanguage } from '../../http/language.ts';
import {
  type CompanyDeps,
  createCompany,
  getCompany,
  inviteCompanyUser,
  listCompanyUsers,
  removeCompanyUser,
  updateCompany,
  updateCompanyUser,
} from './companies.service.ts';

export const companyRoutes: FastifyPluginAsync<CompanyDeps> = async (app, deps) => {
  registerEndpoint(app, endpoints.createCompany, (request) =>
    createCompany(deps, request.caller, request.body),
  );
  registerEndpoint(app, endpoints.getCompany, (request) =>
    getCompany(deps, request.caller, request.params.companyId),
  );
  registerEndpoint(app, endpoints.updateCompany, (request) =>
    updateCompany(deps, request.caller, request.params.companyId, request.body),
  );
  registerEndpoint(app, endpoints.listCompanyUsers, (request) =>
    listCompanyUsers(deps, request.caller, request.params.id),
  );
  registerEndpoint(app, endpoints.inviteCompanyUser, (request) =>
    // The invitation is written in the inviter's language: a team's staff most likely read it.
    inviteCompanyUser(
      deps,
      request.caller,
      request.params.id,
      request.body,
      requestLanguage(request),
    ),
  );
  registerEndpoint(app, endpoints.updateCompanyUser, (request) =>
    updateCompanyUser(
      deps,
      request.caller,
      request.params.companyId,
      request.params.userId,
      request.body,
    ),
  );
  registerEndpoint(app, endpoints.removeCompanyUser, async (request) => {
    await removeCompanyUser(deps, request.caller, request.params.companyId, request.params.userId);
    return { ok: true as const };
  });
};
