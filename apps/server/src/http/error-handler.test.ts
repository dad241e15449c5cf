import Fastify from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../lib/errors.ts';
import { registerErrorHandler } from './error-handler.ts';

describe('error envelope', () => {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();

  beforeAll(async () => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(app);
    app.post(
      '/things',
      { schema: { body: z.object({ name: z.string().min(2), count: z.number().int() }) } },
      async () => ({ data: 'created' }),
    );
    app.get('/conflict', async () => {
      throw new AppError('conflict', 'That name is taken.', { field: 'name' });
    });
    app.get('/boom', async () => {
      throw new Error('connection string postgres://secret@db failed');
    });
    // As Drizzle throws a refused statement: its own error, the driver's (with SQLSTATE) as cause.
    const refused = (code: string) =>
      new Error('Failed query: …', { cause: Object.assign(new Error('refused'), { code }) });
    app.get('/nul', async () => {
      throw refused('22021');
    });
    app.get('/taken', async () => {
      throw refused('23505');
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('gives its reason in the language the request asks for, the details unchanged', async () => {
    const ask = (language?: string) =>
      app.inject({
        method: 'GET',
        url: '/conflict',
        headers: language ? { 'accept-language': language } : {},
      });
    const english = (await ask()).json().error;
    expect(english).toEqual({
      code: 'conflict',
      message: 'That name is taken.',
      details: { field: 'name' },
    });
    expect((await ask('fr-FR,fr;q=0.9')).json().error).toEqual({
      ...english,
      message: 'Cela entre en conflit avec une modification récente. Réessayez.',
    });
    expect((await ask('ar')).json().error.message).toBe('يتعارض هذا مع تغيير حديث. حاول مرة أخرى.');
    expect((await ask('de')).json().error.message).toBe('That name is taken.');
  });

  it('names each invalid field under validation_failed', async () => {
    const response = await app.inject({ method: 'POST', url: '/things', payload: { name: 'x' } });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('validation_failed');
    expect(error.details.issues.map((issue: { field: string }) => issue.field)).toEqual(
      expect.arrayContaining(['body.name', 'body.count']),
    );
    expect(error.message).toContain('body.name');
  });

  it('answers malformed JSON with bad_request', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: 'bad_request', message: 'The request body is not valid JSON.' },
    });
  });

  it('answers a body that is not JSON with unsupported_media_type', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { 'content-type': 'text/csv' },
      payload: 'a,b',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().error.code).toBe('unsupported_media_type');
  });

  it('maps an AppError to its status with code, message and details', async () => {
    const response = await app.inject({ method: 'GET', url: '/conflict' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: { code: 'conflict', message: 'That name is taken.', details: { field: 'name' } },
    });
  });

  it('hides internals of unexpected errors and returns the request id', async () => {
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret');
    expect(response.json()).toEqual({
      error: {
        code: 'internal_error',
        message: 'Something went wrong on our side. Please try again.',
        requestId: expect.any(String),
      },
    });
  });

  it('answers a value the database cannot store as 400, a clash with stored rows as 409', async () => {
    const nul = await app.inject({ method: 'GET', url: '/nul' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toEqual({
      error: { code: 'bad_request', message: 'A value in the request cannot be stored.' },
    });
    const taken = await app.inject({ method: 'GET', url: '/taken' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe('conflict');
  });
});
