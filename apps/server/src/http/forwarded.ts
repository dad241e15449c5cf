import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

export type Forwarded = {
  /** The client's address: Fastify's `request.ip`. */
  ip(request: IncomingMessage): string;
  /** The host the client asked for: Fastify's `request.host`. */
  host(request: IncomingMessage): string;
};

/**
 * Fastify's reading of `X-Forwarded-*` under TRUST_PROXY (only from the proxies it names, or
 * from any with `true`), for raw requests Fastify never routes: the WebSocket upgrade of
 * /wss. The same library and the same rule as fastify/lib/request.js.
 */
export function forwarded(trustProxy: boolean | string): Forwarded {
  const trusted =
    typeof trustProxy === 'string'
      ? proxyAddr.compile(trustProxy.split(',').map((entry) => entry.trim()))
      : () => trustProxy;
  return {
    ip(request) {
      return proxyAddr.all(request, trusted).at(-1) ?? '';
    },
    host(request) {
      const forwardedHost = request.headers['x-forwarded-host'];
      const peer = request.socket.remoteAddress;
      if (typeof forwardedHost === 'string' && peer !== undefined && trusted(peer, 0)) {
        // Each proxy appends its own: the nearest one's is last.
        return forwardedHost.slice(forwardedHost.lastIndexOf(',') + 1).trim();
      }
      return request.headers.host ?? '';
    },
  };
}
