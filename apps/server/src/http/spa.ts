import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { isKnownSpaPath } from '@upnext/contract/routes';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './error-handler.ts';

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

/**
 * Serves the built web app from one origin with the API. Hashed files under /assets are
 * cached for a year; everything else (index.html, favicon) is revalidated on each visit so
 * a deploy shows up at once. Paths the app does not know get its not-found page with a
 * real 404 status, so crawlers and monitors see the truth.
 */
export async function registerSpa(app: FastifyInstance, webDistDir: string): Promise<void> {
  const indexFile = join(webDistDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ webDistDir }, 'web app not built (npm run build); serving the API only');
    app.setNotFoundHandler((request, reply) => apiNotFound(request, reply));
    return;
  }

  await app.register(fastifyStatic, {
    root: webDistDir,
    // Routes for the files present at start; everything else reaches the handler below.
    wildcard: false,
    index: false,
    setHeaders: (res, filePath) => {
      const hashed = filePath.startsWith(join(webDistDir, 'assets'));
      res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  app.setNotFoundHandler((request, reply) => {
    if (!wantsPage(request)) return apiNotFound(request, reply);
    const known = isKnownSpaPath(pathOf(request));
    return reply
      .code(known ? 200 : 404)
      .header('cache-control', 'no-cache')
      .sendFile('index.html', webDistDir);
  });
}
