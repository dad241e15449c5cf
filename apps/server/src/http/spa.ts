import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import negotiate from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import { isKnownSpaPath, matchBoardPath } from '@upnext/contract/routes';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './error-handler.ts';
import { pageLanguage } from './language.ts';

/** Paths owned by the server, never by the single-page app. */
const SERVER_PREFIXES = ['/api', '/auth', '/wss'];

function isServerPath(pathname: string): boolean {
  return SERVER_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** A page navigation, as opposed to an API call or a request for a (missing) file. */
function wantsPage(request: FastifyRequest): boolean {
  const pathname = pathOf(request);
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !isServerPath(pathname) &&
    !lastSegment.includes('.')
  );
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?', 1)[0] ?? '/';
}

function apiNotFound(request: FastifyRequest, reply: FastifyReply) {
  return sendError(reply, 404, {
    code: 'not_found',
    message: `No route matches ${request.method} ${pathOf(request)}.`,
  });
}

/** The variants the build writes beside each text file (apps/web/precompress.ts), best first. */
const ENCODINGS = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

type Encoding = (typeof ENCODINGS)[number]['encoding'];

interface Variant {
  body: Buffer;
  etag: string;
}

/**
 * index.html and its compressed variants, read once: it is the answer to every page
 * navigation. A strong ETag per variant keeps revalidation (`no-cache`) to a 304.
 */
function loadIndex(indexFile: string) {
  const plain = readFileSync(indexFile);
  const hash = createHash('sha256').update(plain).digest('base64url').slice(0, 22);
  const variants = new Map<Encoding, Variant>();
  for (const { encoding, suffix } of ENCODINGS) {
    if (existsSync(indexFile + suffix)) {
      variants.set(encoding, {
        body: readFileSync(indexFile + suffix),
        etag: `"${hash}-${encoding}"`,
      });
    }
  }
  const identity: Variant = { body: plain, etag: `"${hash}"` };
  const offered = [...variants.keys()];
  return (acceptEncoding: string | undefined): { encoding: Encoding | null; variant: Variant } => {
    const encoding = acceptEncoding && offered.length ? negotiate(acceptEncoding, offered) : null;
    return { encoding, variant: (encoding && variants.get(encoding)) || identity };
  };
}

type PageLoader = ReturnType<typeof loadIndex>;

/**
 * The public pages the build prerendered (apps/web/prerender.ts), by path: `index.html` is `/`,
 * `<name>.html` is `/<name>`. Their markup is English, for a signed-out visitor.
 */
function loadPrerendered(webDistDir: string): Map<string, PageLoader> {
  const dir = join(webDistDir, 'prerendered');
  const pages = new Map<string, PageLoader>();
  if (!existsSync(dir)) return pages;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.html'))) {
    const name = file.slice(0, -'.html'.length);
    pages.set(name === 'index' ? '/' : `/${name}`, loadIndex(join(dir, file)));
  }
  return pages;
}

/**
 * Serves the built web app from one origin with the API. Hashed files under /assets are
 * cached for a year; everything else (index.html, favicon) is revalidated on each visit so
 * a deploy shows up at once. The pages the build prerendered are sent as such to the visitors
 * they were rendered for, and with their light start (public.html) to the others; the
 * wall-screen boards get their own light page (display.html).
 * Text files go out as the build's Brotli or gzip variant when the
 * browser accepts one. Paths the app does not know get its not-found page with a real 404
 * status, so crawlers and monitors see the truth.
 */
export async function registerSpa(app: FastifyInstance, webDistDir: string): Promise<void> {
  const indexFile = join(webDistDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ webDistDir }, 'web app not built (npm run build); serving the API only');
    app.setNotFoundHandler((request, reply) => apiNotFound(request, reply));
    return;
  }
  const indexFor = loadIndex(indexFile);
  const prerendered = loadPrerendered(webDistDir);
  // The wall-screen boards' light entry (apps/web/src/display.tsx), when the build has it.
  const boardFile = join(webDistDir, 'display.html');
  const boardFor = existsSync(boardFile) ? loadIndex(boardFile) : null;
  // The prerendered pages' light start (apps/web/src/public.tsx), for the visitors their
  // markup was not rendered for (another language).
  const publicFile = join(webDistDir, 'public.html');
  const publicFor = existsSync(publicFile) ? loadIndex(publicFile) : null;

  await app.register(fastifyStatic, {
    root: webDistDir,
    // The routes are the ones below (serveBuiltFiles); this gives them reply.sendFile.
    serve: false,
    index: false,
    // `x.js` answers with `x.js.br` or `x.js.gz` (Content-Encoding, Vary, x.js's type)...
    preCompressed: true,
    setHeaders: (res, filePath) => {
      const hashed = filePath.startsWith(join(webDistDir, 'assets'));
      res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  app.setNotFoundHandler((request, reply) => {
    if (!wantsPage(request)) return apiNotFound(request, reply);
    const pathname = pathOf(request);
    const known = isKnownSpaPath(pathname);
    // A prerendered page's markup is for a visitor who starts in English without a query, whom
    // its first render is the same for; its light start renders it for everyone else: another
    // language, a join link's code (`/join?queue=`, what a scanned poster or board opens),
    // `?lang=`, a sign-in redirect.
    const page = prerendered.get(pathname);
    const asRendered = !request.url.includes('?') && pageLanguage(request) === 'en';
    const light = page && (asRendered ? page : publicFor);
    const board = boardFor && matchBoardPath(pathname) ? boardFor : null;
    const { encoding, variant } = (light ?? board ?? indexFor)(request.headers['accept-encoding']);
    const vary = [
      reply.getHeader('vary'),
      'accept-encoding',
      page ? 'accept-language, cookie' : null,
    ];
    reply
      .header('cache-control', 'no-cache')
      .header('vary', vary.filter(Boolean).map(String).join(', '))
      .header('etag', variant.etag);
    if (known && request.headers['if-none-match'] === variant.etag) return reply.code(304).send();
    if (encoding) reply.header('content-encoding', encoding);
    return reply
      .code(known ? 200 : 404)
      .type('text/html; charset=utf-8')
      .send(variant.body);
  });
  serveBuiltFiles(app, webDistDir);
}

/**
 * The build's files as they were at start, each at its path (`/assets/x.js`), except the
 * compressed variants, which are never addressed themselves, and dotfiles. What is not one of
 * them (a page, a missing or later file) gets the not-found handler, which answers pages.
 *
 * A route for each top-level file and one wildcard route for each top-level directory, rather
 * than a route for each file (@fastify/static's `wildcard: false`): registering ~600 routes,
 * each for GET and HEAD, cost ~0.2 s of every start. A client that aborts a download is not
 * an error, as in @fastify/static's own routes.
 */
function serveBuiltFiles(app: FastifyInstance, webDistDir: string): void {
  const files = new Set<string>();
  for (const entry of readdirSync(webDistDir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name).slice(webDistDir.length);
    const served =
      entry.isFile() &&
      !path.split('/').some((segment) => segment.startsWith('.')) &&
      !ENCODINGS.some(({ suffix }) => path.endsWith(suffix));
    if (served) files.add(path.startsWith('/') ? path : `/${path}`);
  }
  const options = {
    schema: { hide: true },
    errorHandler: (
      error: Error & { code?: string },
      request: FastifyRequest,
      reply: FastifyReply,
    ) => {
      if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE')
        return app.errorHandler(error, request, reply);
      request.raw.destroy();
    },
  };
  const directories = new Set<string>();
  for (const file of files) {
    const slash = file.indexOf('/', 1);
    if (slash === -1) app.get(file, options, (_request, reply) => reply.sendFile(file.slice(1)));
    else directories.add(file.slice(0, slash));
  }
  for (const directory of directories) {
    app.get<{ Params: { '*': string } }>(`${directory}/*`, options, (request, reply) => {
      // As the router matched a file's own route: decoded, and a trailing slash ignored.
      const file = `${directory}/${request.params['*'].replace(/\/$/, '')}`;
      return files.has(file) ? reply.sendFile(file.slice(1)) : reply.callNotFound();
    });
  }
}
