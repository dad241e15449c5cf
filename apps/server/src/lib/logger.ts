import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/** Query parameters that carry credentials: never written to a log. */
const SECRET_QUERY_KEYS = new Set([
  'token',
  'access_token',
  'refresh_token',
  'token_hash',
  'code',
  'code_verifier',
  'nonce',
  'password',
  'apikey',
]);

export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const params = new URLSearchParams(url.slice(queryStart + 1));
  for (const key of params.keys()) {
    if (SECRET_QUERY_KEYS.has(key.toLowerCase())) params.set(key, '[redacted]');
  }
  return `${url.slice(0, queryStart)}?${params.toString()}`;
}

export function loggerOptions(config: Pick<Config, 'logLevel' | 'env'>) {
  return {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers.apikey',
        'res.headers["set-cookie"]',
        '*.password',
        '*.access_token',
        '*.refresh_token',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: { method: string; url: string; ip?: string; id?: string }) => ({
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip,
      }),
    },
  } satisfies FastifyServerOptions['logger'];
}
