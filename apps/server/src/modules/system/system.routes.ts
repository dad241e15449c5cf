import { systemEndpoints as endpoints } from '@upnext/contract/system';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { registerEndpoint } from '../../http/endpoint.ts';
import { AppError } from '../../lib/errors.ts';
import type { Lifecycle } from '../../lib/lifecycle.ts';

type Deps = { config: Config; database: Database; lifecycle: Lifecycle };

export const systemRoutes: FastifyPluginAsync<Deps> = async (
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

  registerEndpoint(app, endpoints.health, async () => {
    await checkDatabase();
    return {
      status: 'ok' as const,
      database: 'ok' as const,
      uptimeSeconds: Math.round(process.uptime()),
    };
  });

  registerEndpoint(app, endpoints.ready, async () => {
    if (!lifecycle.ready) throw new AppError('not_ready', 'The server is not accepting traffic.');
    await checkDatabase();
    return { status: 'ready' as const };
  });

  const clientConfig = {
    environment: config.env,
    version: config.version,
    publicUrl: config.publicUrl,
    sentryDsn: config.sentryDsn ?? null,
  };
  registerEndpoint(app, endpoints.getClientConfig, async () => clientConfig);
};
