import { clientConfigSchema } from './client-config.ts';
import { endpoint } from './endpoint.ts';
import { healthSchema, readinessSchema } from './health.ts';
import { lightPaths } from './light-paths.ts';

export const systemEndpoints = {
  health: endpoint({
    method: 'GET',
    path: '/health',
    tag: 'system',
    summary: 'Liveness, including a database round trip',
    public: true,
    responses: { 200: healthSchema },
    errors: ['database_unavailable'],
  }),
  ready: endpoint({
    method: 'GET',
    path: '/ready',
    tag: 'system',
    summary: 'Readiness: 503 while starting or draining, so load balancers route around it',
    public: true,
    responses: { 200: readinessSchema },
    errors: ['not_ready', 'database_unavailable'],
  }),
  getClientConfig: endpoint({
    method: 'GET',
    path: lightPaths.clientConfig,
    tag: 'system',
    summary: 'Public settings the web app reads at boot (nothing secret)',
    public: true,
    responses: { 200: clientConfigSchema },
    errors: [],
  }),
};
