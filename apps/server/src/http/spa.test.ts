import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';

const INDEX = '<!doctype html><title>UpNext</title><div id="root">';
const SCRIPT = `export const app = "${'upnext '.repeat(200)}";`;
/** A page the build prerendered (apps/web/prerender.ts). */
const SERVICES = '<!doctype html><div id="root" data-prerendered="en"><h1>Services</h1>';
const STYLE = `.a{color:red}${'.b{margin:0}'.repeat(100)}`;

describe('serving the web app', () => {
  let dist: string;
  let database: TestDatabase;
  let app: Awaited<ReturnType<typeof buildTestApp>>['app'];

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'upnext-dist-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), INDEX);
    await writeFile(join(dist, 'assets', 'index-3f2a9c.js'), 'console.log(1)');
    // What the build writes beside text files (apps/web/precompress.ts).
    for (const [file, text] of [
      ['index.html', INDEX],
      ['assets/app-9b1c2d.js', SCRIPT],
      ['assets/app-9b1c2d.css', STYLE],
    ] as const) {
      await writeFile(join(dist, file), text);
      await writeFile(join(dist, `${file}.br`), brotliCompressSync(text));
      await writeFile(join(dist, `${file}.gz`), gzipSync(text));
    }
    await mkdir(join(dist, 'prerendered'));
    await writeFile(join(dist, 'prerendered', 'services.html'), SERVICES);
    await writeFile(join(dist, 'prerendered', 'services.html.br'), brotliCompressSync(SERVICES));
    await writeFile(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await mkdir(join(dist, 'assets', 'chunks'));
    await writeFile(join(dist, 'assets', 'chunks', 'deep-1a2b.js'), 'console.log(2)');
    await writeFile(join(dist, '.env'), 'SECRET=1');
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

  it.each([
    ['/assets/app-9b1c2d.js', SCRIPT, /javascript/],
    ['/assets/app-9b1c2d.css', STYLE, /^text\/css/],
    ['/pricing', INDEX, /^text\/html/],
  ])(
    "sends %s as the build's Brotli or gzip variant, as the browser accepts",
    async (url, text, type) => {
      const get = (acceptEncoding?: string) =>
        app.inject({
          method: 'GET',
          url,
          headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
        });
      const br = await get('gzip, deflate, br, zstd');
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(type);
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(text);

      const gzip = await get('gzip, deflate');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.headers['content-type']).toMatch(type);
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(text);

      const plain = await get();
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.body).toBe(text);
    },
  );

  it('serves the files there were at start, nested ones too, and nothing else', async () => {
    for (const url of ['/assets/chunks/deep-1a2b.js', '/assets/index-3f2a9c.js/', '/favicon.svg']) {
      const get = await app.inject({ method: 'GET', url });
      expect(get.statusCode, url).toBe(200);
      const head = await app.inject({ method: 'HEAD', url });
      expect(head.statusCode, url).toBe(200);
      expect(head.headers['content-length'], url).toBe(String(get.rawPayload.length));
    }
    await writeFile(join(dist, 'assets', 'late-4d5e.js'), 'console.log(3)');
    for (const url of ['/assets/late-4d5e.js', '/assets/chunks/missing.js', '/.env']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/application\/json/);
    }
    // A directory is a path like any other: the app's not-found page.
    const directory = await app.inject({ method: 'GET', url: '/assets/chunks/' });
    expect(directory.statusCode).toBe(404);
    expect(directory.body).toContain('<div id="root">');
  });

  it('never serves the compressed variants as files of their own', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/app-9b1c2d.js.br' });
    expect(response.statusCode).toBe(404);
  });

  it('answers a revalidation of the unchanged index.html with 304, per encoding', async () => {
    const first = await app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'br' },
    });
    const etag = String(first.headers.etag);
    const again = await app.inject({
      method: 'GET',
      url: '/join',
      headers: { 'accept-encoding': 'br', 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // The plain variant is another representation: it does not match the Brotli one's tag.
    const plain = await app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': etag } });
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe(INDEX);
  });

  it('answers a prerendered page with its markup to English visitors, without a query', async () => {
    const english = await app.inject({
      method: 'GET',
      url: '/services',
      headers: { 'accept-language': 'en-GB,fr;q=0.5', 'accept-encoding': 'br' },
    });
    expect(english.statusCode).toBe(200);
    expect(english.headers['content-encoding']).toBe('br');
    expect(english.headers.vary).toMatch(/accept-language/i);
    expect(brotliDecompressSync(english.rawPayload).toString()).toBe(SERVICES);
    expect((await app.inject({ method: 'GET', url: '/services' })).body).toBe(SERVICES);

    // Another language, or a query the first render depends on: the app renders it itself.
    for (const request of [
      { url: '/services', headers: { 'accept-language': 'fr-FR,en;q=0.5' } },
      // Chosen with the app's switcher, on an English browser.
      { url: '/services', headers: { 'accept-language': 'en', cookie: 'a=1; upnext.language=ar' } },
      { url: '/services?lang=en', headers: {} },
    ]) {
      const response = await app.inject({ method: 'GET', ...request });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(INDEX);
    }
  });
});

describe('serving the public pages’ light start', () => {
  const PUBLIC = '<!doctype html><div id="root"></div><script src="/assets/public-1.js"></script>';
  let dist: string;
  let database: TestDatabase;
  let app: Awaited<ReturnType<typeof buildTestApp>>['app'];

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'upnext-dist-'));
    await writeFile(join(dist, 'index.html'), INDEX);
    await writeFile(join(dist, 'public.html'), PUBLIC);
    await writeFile(join(dist, 'public.html.br'), brotliCompressSync(PUBLIC));
    await mkdir(join(dist, 'prerendered'));
    await writeFile(join(dist, 'prerendered', 'services.html'), SERVICES);
    database = await createTestDatabase('pglite');
    ({ app } = await buildTestApp(database, {}, { webDistDir: dist }));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('answers a prerendered page’s path with the light start to the visitors its markup is not for', async () => {
    const french = await app.inject({
      method: 'GET',
      url: '/services',
      headers: { 'accept-language': 'fr-FR,en;q=0.5', 'accept-encoding': 'br' },
    });
    expect(french.statusCode).toBe(200);
    expect(french.headers.vary).toMatch(/accept-language/i);
    expect(brotliDecompressSync(french.rawPayload).toString()).toBe(PUBLIC);
    const chosen = await app.inject({
      method: 'GET',
      url: '/services',
      headers: { 'accept-language': 'en', cookie: 'upnext.language=ar' },
    });
    expect(chosen.body).toBe(PUBLIC);
    expect((await app.inject({ method: 'GET', url: '/services' })).body).toBe(SERVICES);
    // A join link's code, `?lang=`, a sign-in redirect: its first render depends on them.
    for (const url of [
      '/services?queue=HVGP',
      '/services?redirect=%2Fadmin',
      '/services?lang=en',
    ]) {
      expect((await app.inject({ method: 'GET', url })).body).toBe(PUBLIC);
    }
    // Any other path is the app's.
    expect((await app.inject({ method: 'GET', url: '/aboutus' })).body).toBe(INDEX);
  });
});

describe('serving the wall-screen boards', () => {
  const BOARD = '<!doctype html><title>UpNext</title><script src="/assets/display-1.js"></script>';
  let dist: string;
  let database: TestDatabase;
  let app: Awaited<ReturnType<typeof buildTestApp>>['app'];

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'upnext-dist-'));
    await writeFile(join(dist, 'index.html'), INDEX);
    await writeFile(join(dist, 'display.html'), BOARD);
    await writeFile(join(dist, 'display.html.br'), brotliCompressSync(BOARD));
    database = await createTestDatabase('pglite');
    ({ app } = await buildTestApp(database, {}, { webDistDir: dist }));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await rm(dist, { recursive: true, force: true });
  });

  it.each(['/display/6f1d2c7a', '/display/queue/9a8b7c6d?lang=fr'])(
    'answers the board %s with its own light page',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(BOARD);
      const compressed = await app.inject({
        method: 'GET',
        url,
        headers: { 'accept-encoding': 'br' },
      });
      expect(compressed.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(BOARD);
    },
  );

  it.each(['/', '/join', '/display', '/display/a/b/c'])('answers %s with the app', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.body).toBe(INDEX);
  });
});
