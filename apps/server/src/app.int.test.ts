import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from './test/database.ts';

describe.each(testDrivers)('HTTP app on %s', (driver) => {
  let database: TestDatabase;
  let app: Awaited<ReturnType<typeof buildTestApp>>['app'];
  let lifecycle: Awaited<ReturnType<typeof buildTestApp>>['lifecycle'];

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    ({ app, lifecycle } = await buildTestApp(database, {
      CORS_ORIGINS: 'https://partner.example.com',
    }));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('reports health after a database round trip', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ data: { status: 'ok', database: 'ok' } });
  });

  it('is ready only while the lifecycle says so', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    lifecycle.ready = false;
    const draining = await app.inject({ method: 'GET', url: '/api/ready' });
    lifecycle.ready = true;
    expect(draining.statusCode).toBe(503);
    expect(draining.json()).toMatchObject({ error: { code: 'not_ready' } });
  });

  it('answers unknown API paths with the error envelope and 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/no-such-thing?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json()).toEqual({
      error: { code: 'not_found', message: 'No route matches GET /api/no-such-thing.' },
    });
  });

  it('answers a malformed URL or an over-long path parameter with the error envelope', async () => {
    const long = await app.inject({
      method: 'GET',
      url: `/api/meetings/${'a'.repeat(101)}`,
      headers: { 'x-request-id': 'trace-414' },
    });
    expect(long.statusCode).toBe(414);
    // Named like every other answer, though no route or hook ran.
    expect(long.headers['x-request-id']).toBe('trace-414');
    expect(long.json()).toEqual({
      error: { code: 'uri_too_long', message: 'A part of the URL is too long.' },
    });
    const malformed = await app.inject({ method: 'GET', url: '/api/meetings/%E0%A4%A' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({
      error: { code: 'bad_request', message: 'The URL is not validly encoded.' },
    });
    // Under /auth/v1 in GoTrue's shape, which auth-js reads.
    const auth = await app.inject({
      method: 'GET',
      url: `/auth/v1/admin/users/${'a'.repeat(101)}`,
    });
    expect(auth.statusCode).toBe(414);
    expect(auth.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(auth.json()).toMatchObject({ code: 414, error_code: 'bad_request' });
  });

  it('answers headers too large for the HTTP parser (431) with the error envelope', async () => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}/api/health`, {
      headers: { 'x-padding': 'a'.repeat(20_000) },
    });
    expect(response.status).toBe(431);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      error: { code: 'headers_too_large', message: 'The request headers are too large.' },
    });
  });

  it('gives every response a request id, keeping a sane incoming one only', async () => {
    const minted = await app.inject({ method: 'GET', url: '/api/health' });
    expect(minted.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'lb-1234567890' },
    });
    expect(kept.headers['x-request-id']).toBe('lb-1234567890');
    const refused = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': '<script>alert(1)</script>' },
    });
    expect(refused.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends security headers', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['permissions-policy']).toContain('camera=(self)');
  });

  it('allows configured origins only, exposing the headers the auth client reads', async () => {
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/health',
      headers: {
        origin: 'https://partner.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization,x-user-timezone,apikey',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://partner.example.com');
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/X-user-timezone/i);

    const allowed = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://partner.example.com' },
    });
    expect(String(allowed.headers['access-control-expose-headers'])).toContain(
      'X-Supabase-Api-Version',
    );
    const stranger = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://evil.example.com' },
    });
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('publishes the OpenAPI document and the interactive reference', async () => {
    const document = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(document.statusCode).toBe(200);
    const openapi = document.json();
    expect(openapi.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining(['/api/health', '/api/ready', '/api/client-config']),
    );
    expect(openapi.paths['/api/health'].get.responses['503']).toBeDefined();
    const docs = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
  });

  it('tells the browser its public settings and nothing secret', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/client-config' });
    expect(response.json()).toEqual({
      data: {
        environment: 'test',
        version: expect.any(String),
        publicUrl: 'http://localhost:3000',
        sentryDsn: null,
      },
    });
  });
});

describe.each(testDrivers)('health with the database gone on %s', (driver) => {
  it('answers 503 database_unavailable, not a crash', async () => {
    const database = await createTestDatabase(driver);
    const { app } = await buildTestApp(database);
    await database.close();
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    await app.close();
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      error: { code: 'database_unavailable', requestId: expect.any(String) },
    });
  });
});
