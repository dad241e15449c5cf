import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import * as zod from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../config.ts';
import { registerOpenApi, SWAGGER_UI_OPTIONS, swaggerOptions } from './openapi.ts';

const config = loadConfig({ NODE_ENV: 'test' });
const ok = async () => ({ data: null });

/** Routes of the shapes the app has: prefixed plugins, hidden ones, several methods, HEAD. */
async function addRoutes(app: FastifyInstance) {
  app.get(
    '/api/things',
    { schema: { response: { 200: z.object({ data: z.array(z.string()) }) } } },
    ok,
  );
  app.route({
    method: ['GET', 'POST'],
    url: '/api/things/:id',
    schema: { params: z.object({ id: z.string() }) },
    handler: ok,
  });
  app.head('/api/probe', ok);
  app.get('/api/hosts', { constraints: { host: 'example.com' } }, ok);
  app.get('/api/hosts', ok);
  await app.register(childRoutes, { prefix: '/api/child' });
  await app.register(hiddenRoutes, { prefix: '/auth/v1' });
}

const childRoutes: FastifyPluginAsync = async (child) => {
  child.post('/make', { schema: { body: z.object({ n: z.number().int() }) } }, ok);
};

// As auth.plugin.ts hides GoTrue's routes: a later hook that replaces the schema.
const hiddenRoutes: FastifyPluginAsync = async (child) => {
  child.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  child.get('/secret', ok);
};

function base() {
  const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  app.setValidatorCompiler(zod.validatorCompiler);
  app.setSerializerCompiler(zod.serializerCompiler);
  return app;
}

/** @fastify/swagger and its UI registered up front, as the app had them before. */
async function eagerApp() {
  const app = base();
  await app.register(fastifySwagger, swaggerOptions(config, zod));
  await app.register(fastifySwaggerUi, SWAGGER_UI_OPTIONS);
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
  await addRoutes(app);
  await app.ready();
  return app;
}

async function lazyApp() {
  const app = base();
  await registerOpenApi(app, config);
  await addRoutes(app);
  await app.ready();
  return app;
}

describe('the API reference, loaded on first use', () => {
  let eager: FastifyInstance;
  let lazy: FastifyInstance;
  beforeAll(async () => {
    [eager, lazy] = await Promise.all([eagerApp(), lazyApp()]);
  });
  afterAll(async () => {
    await Promise.all([eager?.close(), lazy?.close()]);
  });

  it('publishes the same document as @fastify/swagger registered at start', async () => {
    const expected = await eager.inject({ method: 'GET', url: '/api/openapi.json' });
    const actual = await lazy.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(actual.statusCode).toBe(200);
    expect(actual.json()).toEqual(expected.json());
    expect(Object.keys(actual.json().paths)).toEqual([
      '/api/things',
      '/api/things/{id}',
      '/api/hosts',
      '/api/child/make',
    ]);
  });

  it.each([
    ['GET', '/api/docs'],
    ['GET', '/api/docs/'],
    ['GET', '/api/docs/json'],
    ['GET', '/api/docs/static/swagger-ui.css'],
    ['HEAD', '/api/docs/static/swagger-ui.css'],
    ['GET', '/api/docs/static/index.html'],
    ['GET', '/api/docs/static/missing.js'],
  ] as const)('answers %s %s as before', async (method, url) => {
    const expected = await eager.inject({ method, url });
    const actual = await lazy.inject({ method, url });
    expect(actual.statusCode).toBe(expected.statusCode);
    expect(actual.headers['content-type']).toBe(expected.headers['content-type']);
    expect(actual.headers.location).toBe(expected.headers.location);
    expect(actual.headers['content-length']).toBe(expected.headers['content-length']);
    expect(actual.rawPayload.equals(expected.rawPayload)).toBe(true);
  });
});
