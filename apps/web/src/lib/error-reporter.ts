import { lightPaths } from '@upnext/contract/light-paths';
import type { systemEndpoints } from '@upnext/contract/system';
import { api } from './api-client.ts';

export type ErrorContext = Record<string, unknown>;
type Reporter = (error: unknown, context?: ErrorContext) => void;

const consoleReporter: Reporter = (error, context) => {
  console.error('[UpNext]', error, ...(context ? [context] : []));
};

let reporter: Reporter = consoleReporter;

/** Send an error to Sentry when the server configured a DSN, else to the console. */
export function reportError(error: unknown, context?: ErrorContext): void {
  reporter(error, context);
}

/**
 * Ask the server how this deployment reports errors (GET /api/client-config). Sentry and the
 * settings' schema (zod) are imported only when there is a DSN to use, so a deployment without
 * one downloads neither, and the first paint never waits for either.
 */
export async function initErrorReporting(): Promise<void> {
  try {
    const answer = await api.callAt<typeof systemEndpoints.getClientConfig>(
      { method: 'GET', path: lightPaths.clientConfig },
      {},
    );
    if (!answer?.sentryDsn) return;
    const { clientConfigSchema } = await import('@upnext/contract/client-config');
    const config = clientConfigSchema.parse(answer);
    if (!config.sentryDsn) return;
    const Sentry = await import('./sentry.ts');
    Sentry.init({
      dsn: config.sentryDsn,
      environment: config.environment,
      release: config.version,
    });
    reporter = (error, context) => {
      Sentry.captureException(error, context ? { extra: context } : undefined);
    };
  } catch (error) {
    // Reporting must never break the app: stay on the console and say why once.
    console.warn('[UpNext] error reporting stays on the console:', error);
  }
}
