import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.ts';

/** Headers the official auth client and our own client send cross-origin. */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Accept',
  'apikey',
  'X-Client-Info',
  'X-Supabase-Api-Version',
  'X-JWT-AUD',
  'x-use-cookie',
  'X-user-timezone',
  'X-Request-Id',
];

/** Response headers browsers may read cross-origin (auth-js needs the first three). */
const EXPOSED_HEADERS = ['X-Supabase-Api-Version', 'X-Total-Count', 'Link', 'X-Request-Id'];

/**
 * The one rule for which web pages may use this server with their user's credentials: the
 * pages it serves itself (the origin of PUBLIC_URL, or of the host the request was sent to,
 * as through Vite's dev proxy) and those of the sites in CORS_ORIGINS. CORS answers by it,
 * and /wss refuses an upgrade from any other page (realtime/admission.ts).
 */
export function isAllowedOrigin(config: Config, origin: string, host: string): boolean {
  if (config.corsOrigins.includes(origin)) return true;
  if (!URL.canParse(origin)) return false; // "null": a sandboxed frame or a local file
  const page = new URL(origin);
  return page.origin === new URL(config.publicUrl).origin || page.host === host.toLowerCase();
}

export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const sentryOrigin = config.sentryDsn ? new URL(config.sentryDsn).origin : null;
  // Built once: @fastify/helmet built these headers anew for every request.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes CSS variables and component styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:', ...(sentryOrigin ? [sentryOrigin] : [])],
        workerSrc: ["'self'", 'blob:'],
        frameAncestors: ["'none'"],
        formAction: ["'self'", 'https:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: config.env === 'production' ? [] : null,
      },
    },
    // Cross-origin isolation would block the payment provider's return and OAuth pop-ups.
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    strictTransportSecurity:
      config.env === 'production' ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, () => done());
  });

  app.addHook('onSend', async (_request, reply) => {
    // Camera, microphone and screen sharing are for our own meeting screen only.
    reply.header(
      'permissions-policy',
      'camera=(self), microphone=(self), display-capture=(self), geolocation=(self), payment=(self)',
    );
  });

  const cors = {
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  };
  await app.register(fastifyCors, {
    // Per request, since the rule needs the host it was sent to.
    delegator: (request, callback) => {
      const origin = request.headers.origin;
      const allowed = origin !== undefined && isAllowedOrigin(config, origin, request.host);
      callback(null, { ...cors, origin: allowed });
    },
  });
}
