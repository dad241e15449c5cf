import { reportEndpoints as endpoints } from '@upnext/contract/reports';
import type { FastifyPluginAsync } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.ts';
import { getReport, type ReportsDeps } from './reports.service.ts';

export const reportRoutes: FastifyPluginAsync<ReportsDeps> = async (app, deps) => {
  registerEndpoint(app, endpoints.getReport, (request) =>
    getReport(deps, request.caller, request.params.companyId, request.query),
  );
};
