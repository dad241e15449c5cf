import { billingEndpoints as endpoints } from '@upnext/contract/billing';
import type { FastifyPluginAsync } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.ts';
import { type BillingDeps, getCompanyBilling } from './billing.service.ts';

export const billingRoutes: FastifyPluginAsync<BillingDeps> = async (app, deps) => {
  registerEndpoint(app, endpoints.getCompanyBilling, (request) =>
    getCompanyBilling(deps, request.caller, request.params.companyId),
  );
};
