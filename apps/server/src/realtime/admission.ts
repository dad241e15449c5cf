import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Config } from '../config.ts';
import { forwarded } from '../http/forwarded.ts';
import { isAllowedOrigin } from '../http/security.ts';

export type Refusal = { status: number; text: string };

/**
 * Which upgrades to /wss go on to authentication. A page of another site is refused (403) by
 * the server's one origin rule; a request without `Origin` is not a browser's (browsers always
 * send it on a WebSocket upgrade) and could claim any origin anyway, so it goes on: the check
 * protects a browser's user from other sites, not the server from other programs. Then at
 * most `maxConnectionsPerIp` sockets from one client address (as Fastify's `request.ip` reads
 * it under TRUST_PROXY) and `maxConnections` in all (0 = no limit). A socket counts from its
 * upgrade until it closes, signed in, anonymous or not yet CONNECTed.
 */
export function createAdmission(
  config: Config,
): (request: IncomingMessage, socket: Duplex) => Refusal | undefined {
  const { ip, host } = forwarded(config.trustProxy);
  const { maxConnections, maxConnectionsPerIp } = config.realtime;
  const perAddress = new Map<string, number>();
  let total = 0;
  return (request, socket) => {
    const origin = request.headers.origin;
    if (origin !== undefined && !isAllowedOrigin(config, origin, host(request))) {
      return { status: 403, text: 'Forbidden' };
    }
    const address = ip(request);
    const fromAddress = perAddress.get(address) ?? 0;
    if (maxConnectionsPerIp > 0 && fromAddress >= maxConnectionsPerIp) {
      return { status: 429, text: 'Too Many Requests' };
    }
    if (maxConnections > 0 && total >= maxConnections) {
      return { status: 503, text: 'Service Unavailable' };
    }
    total++;
    perAddress.set(address, fromAddress + 1);
    socket.once('close', () => {
      total--;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
    return undefined;
  };
}
