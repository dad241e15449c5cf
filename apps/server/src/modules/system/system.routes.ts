import { clientConfigSchema } from '@upnext/contract/client-config';
import { dataEnvelope, errorEnvelopeSchema } from '@upnext/contract/errors';
import { healthSchema, readinessSchema } from '@upnext/contract/health';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { Lifecycle } from '../../lib/lifecycle.ts';

type Deps = { config: Config; database: Database; lifecycle: Lifecycle };

export const systemRoutes: FastifyPluginAsyncZod<Deps> = async (
  app,
  { config, database, lifecycle },
) => {
  async function checkDatabase() {
    try {
      await database.ping();
    } catch (cause) {
      app.log.error({ err: cause }, 'database ping failed');
      throw new AppError('database_unavailable', 'The database is not reachable.');
    }
  }

  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness, including a database round trip',
        response: { 200: dataEnvelope(healthSchema), 503: errorEnvelopeSchema },
      },
    },
    async () => {
      await checkDatabase();
      return {
        data: {
          status: 'ok' as const,
          database: 'ok' as const,
          uptimeSeconds: Math.round(process.uptime()),
        },
      };
    },
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['system'],
        summary: 'Readiness: 503 while starting or draining, so load balancers route around it',
        response: { 200: dataEnvelope(readinessSchema), 503: errorEnvelopeSchema },
      },
    },
    async () => {
      if (!lifecycle.ready) throw new AppError('not_ready', 'The server is not accepting traffic.');
      await checkDatabase();
      return { data: { status: 'ready' as const } };
    },
  );

  const clientConfig = {
    environment: config.env,
    version: config.version,
    publicUrl: config.publicUrl,
    sentryDsn: config.sentryDsn ?? null,
  };
  app.get(
    '/client-config',
    {
      schema: {
        tags: ['system'],
        summary: 'Public settings the web app reads at boot (nothing secret)',
        response: { 200: dataEnvelope(clientConfigSchema) },
      },
    },
    async () => ({ data: clientConfig }),
  );
};
