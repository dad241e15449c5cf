import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';

describe('serving the web app', () => {
  let dist: string;
  let database: TestDatabase;
  let app: Awaited<ReturnType<typeof buildTestApp>>['app'];

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'upnext-dist-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(
      join(dist, 'index.html'),
      '<!doctype html><title>UpNext</title><div id="root">',
    );
    await writeFile(join(dist, 'assets', 'index-3f2a9c.js'), 'console.log(1)');
    await writeFile(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    database = await createTestDatabase('pglite');
    ({ app } = await buildTestApp(database, {}, { webDistDir: dist }));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await rm(dist, { recursive: true, force: true });
  });

  it.each(['/', '/pricing', '/join', '/admin/queues', '/admin/live-sessions/a/2026-11-22/b'])(
    'answers the app route %s with index.html, revalidated on every visit',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root">');
    },
  );

  it('answers unknown pages with the app (its not-found screen) and a real 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/definitely/not/here' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('<div id="root">');
  });

  it('caches hashed assets for a year and other files not at all', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/index-3f2a9c.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('never answers server paths or non-GET requests with the app', async () => {
    for (const [method, url] of [
      ['GET', '/api/unknown'],
      ['GET', '/auth/v1/nothing-yet'],
      ['POST', '/pricing'],
      ['GET', '/assets/missing.js'],
    ] as const) {
      const response = await app.inject({ method, url });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.headers['content-type'], `${method} ${url}`).toMatch(/application\/json/);
    }
  });
});
