import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';

/** The OpenAPI document is generated from the routes' zod schemas, so it cannot drift. */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifySwagger, {
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
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { deepLinking: true, tryItOutEnabled: true },
  });

  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
}
