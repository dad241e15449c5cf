import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify';
import type { Config } from '../config.ts';

const DOCS_PREFIX = '/api/docs';
/** What the API reference answers with that is the connection's, not the content's. */
const HOP_HEADERS = new Set([
  'connection',
  'content-length',
  'date',
  'keep-alive',
  'transfer-encoding',
]);

/**
 * The OpenAPI document is generated from the routes' zod schemas, so it cannot drift.
 *
 * @fastify/swagger and its reference UI (with `yaml`, ~100 modules and the UI's static files)
 * load on the first request for the document or `/api/docs`, not at every start: this collects
 * the routes as @fastify/swagger would (every route registered after this call, in order, the
 * same route objects), and that request builds a separate, never-listening Fastify instance
 * with both plugins and these routes (handlers never called) and asks it. `/api/docs/*` is
 * forwarded to it; what it does not know gets this app's 404. `openapi.test.ts` compares the
 * document and the UI's answers with @fastify/swagger registered up front. The first request
 * pays ~0.05 s more than the document's generation, once.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  const routes: RouteOptions[] = [];
  let reference: Promise<FastifyInstance> | undefined;
  const loadReference = () => {
    reference ??= buildReference(config, routes).catch((error: unknown) => {
      reference = undefined; // the next request tries again
      throw error;
    });
    return reference;
  };
  app.addHook('onClose', async () => {
    await (await reference?.catch(() => undefined))?.close();
  });

  app.get('/api/openapi.json', { schema: { hide: true } }, async () =>
    (await loadReference()).swagger(),
  );
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const docs = await loadReference();
    // A HEAD is answered as this app answers any: the GET's headers without its body.
    const response = await docs.inject({
      method: 'GET',
      url: request.url,
      headers: request.headers,
    });
    if (response.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined && !HOP_HEADERS.has(name)) reply.header(name, value);
    }
    reply.code(response.statusCode);
    // An empty Buffer would be sent as application/octet-stream (a redirect, a 304).
    return response.rawPayload.length ? reply.send(response.rawPayload) : reply.send();
  };
  app.get(DOCS_PREFIX, { schema: { hide: true } }, forward);
  app.get(`${DOCS_PREFIX}/*`, { schema: { hide: true } }, forward);

  // Registered after the routes above, which are hidden from the document anyway.
  app.addHook('onRoute', (route) => {
    // @fastify/swagger leaves HEAD routes out (no exposeHeadRoutes); the copies below get
    // Fastify's automatic HEAD routes turned off instead.
    if (route.method !== 'HEAD') routes.push(route);
  });
}

type ZodProvider = typeof import('fastify-type-provider-zod');

/** @fastify/swagger's options (exported for openapi.test.ts). */
export function swaggerOptions(config: Config, zod: ZodProvider): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'UpNext API',
        description:
          'Queues, appointments and video consultations. Success bodies are `{ "data": ... }`; ' +
          'errors are `{ "error": { "code", "message", "details"?, "requestId"? } }` with stable ' +
          'snake_case codes. Send `Authorization: Bearer <access token>` and `X-user-timezone` ' +
          '(an IANA zone) when signed in.',
        version: config.version,
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
    },
    transform: zod.jsonSchemaTransform,
    transformObject: zod.jsonSchemaTransformObject,
  };
}

/** The reference UI's options (exported for openapi.test.ts). */
export const SWAGGER_UI_OPTIONS: FastifySwaggerUiOptions = {
  routePrefix: DOCS_PREFIX,
  uiConfig: { deepLinking: true, tryItOutEnabled: true },
};

async function buildReference(config: Config, routes: RouteOptions[]): Promise<FastifyInstance> {
  const [{ default: fastifySwagger }, { default: fastifySwaggerUi }, zod] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
    import('fastify-type-provider-zod'),
  ]);
  const docs = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  // The copies are never called: no validation or serialisation to compile.
  docs.setValidatorCompiler(() => () => true);
  docs.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await docs.register(fastifySwagger, swaggerOptions(config, zod));
  await docs.register(fastifySwaggerUi, SWAGGER_UI_OPTIONS);
  for (const route of routes) {
    docs.route({
      method: route.method,
      url: route.url,
      schema: route.schema,
      config: route.config,
      constraints: route.constraints,
      exposeHeadRoute: false,
      handler: () => {},
    });
  }
  await docs.ready();
  return docs;
}
