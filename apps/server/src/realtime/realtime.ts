import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { realtimePath } from '@upnext/contract/realtime';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { WebSocketServer } from 'ws';
import type { AuthKeys } from '../auth/keys.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { createCallerResolver } from '../http/caller.ts';
import type { Clock } from '../lib/clock.ts';
import { AppError } from '../lib/errors.ts';
import type { EventPublisher } from '../lib/events.ts';
import type { Caller } from '../modules/access/caller.ts';
import { createAdmission } from './admission.ts';
import { LocalBroker } from './broker.ts';
import { connectBus, type RealtimeBus } from './bus.ts';
import type { CallAuthorizer } from './realtime.policy.ts';
import { cachedSessionAudience } from './realtime.repository.ts';
import { StompConnection, stompLimits } from './stomp-connection.ts';

const stompSubprotocol = 'v12.stomp';
const sessionRecheckMs = 60_000;

export type RealtimeDeps = {
  config: Config;
  db: Db;
  keys: AuthKeys;
  clock: Clock;
  /** The rule for `/app/call`: the meetings relay. */
  authorizeCall: CallAuthorizer;
  /** Tests give each run its own bus channel. */
  busChannel?: string;
};

export type Realtime = {
  /** Delivers to this instance's subscribers and, with a bus, to every other instance's. */
  publisher: EventPublisher;
  broker: LocalBroker;
  /** Open STOMP connections on this instance and their subscriptions (for /metrics). */
  stats(): { connections: number; subscriptions: number };
};

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

/**
 * The STOMP endpoint at `/wss?token=<access token>` on the app's own HTTP server, and the
 * publisher services hand their committed events to. Connections close cleanly when the app
 * closes; the bus connection after them.
 */
export async function registerRealtime(
  app: FastifyInstance,
  deps: RealtimeDeps,
): Promise<Realtime> {
  const log = app.log.child({ module: 'realtime' });
  const broker = new LocalBroker();
  const busUrl = deps.config.realtime.busUrl;
  const bus: RealtimeBus | undefined = busUrl
    ? await connectBus({
        url: busUrl,
        ...(deps.busChannel ? { channel: deps.busChannel } : {}),
        onMessage: (destination, body) => broker.deliver(destination, body),
        onError: (error) => log.error({ err: error }, 'realtime: bus error'),
      })
    : undefined;

  if (bus)
    log.info(
      { bus: new URL(busUrl as string).protocol.replace(':', '') },
      'realtime: bus connected',
    );

  const publish = (destination: string, body: string) => {
    broker.deliver(destination, body);
    bus?.publish(destination, body);
  };
  const publisher: EventPublisher = {
    publish(destination, body) {
      publish(destination, JSON.stringify(body));
    },
  };

  const resolveCaller = createCallerResolver({
    db: deps.db,
    keys: deps.keys,
    auth: deps.config.auth,
    clock: deps.clock,
  });
  const connections = new Set<StompConnection>();
  const audience = cachedSessionAudience(deps.db);
  const admit = createAdmission(deps.config);
  const wss = new WebSocketServer({
    noServer: true,
    // A message a little over the frame limit still gets a STOMP ERROR; far over, a close 1009.
    maxPayload: stompLimits.maxFrameBytes * 2,
    perMessageDeflate: false,
    clientTracking: false,
    handleProtocols: (protocols) => (protocols.has(stompSubprotocol) ? stompSubprotocol : false),
  });

  async function authenticate(
    request: IncomingMessage,
  ): Promise<{ caller: Caller; token?: string; expiresAt?: number }> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const token = url.searchParams.get('token');
    if (token === null || token === '')
      return { caller: { kind: 'anonymous', timezone: undefined } };
    const caller = await resolveCaller({ authorization: `Bearer ${token}` });
    const { exp } = decodeJwt(token);
    return { caller, token, ...(typeof exp === 'number' ? { expiresAt: exp * 1000 } : {}) };
  }

  /** The same check as at the upgrade: the session still exists and the user is not banned. */
  async function stillSignedIn(token: string | undefined): Promise<boolean> {
    if (token === undefined) return true;
    try {
      await resolveCaller({ authorization: `Bearer ${token}` });
      return true;
    } catch (error) {
      if (error instanceof AppError) return false;
      throw error;
    }
  }

  function onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (pathname !== realtimePath) {
      reject(socket, 404, 'Not Found');
      return;
    }
    const refusal = admit(request, socket);
    if (refusal) {
      if (refusal.status === 503) log.warn('realtime: connection limit reached; refusing');
      reject(socket, refusal.status, refusal.text);
      return;
    }
    socket.on('error', () => socket.destroy());
    authenticate(request).then(
      ({ caller, token, expiresAt }) => {
        if (socket.destroyed) return;
        wss.handleUpgrade(request, socket, head, (ws) => {
          const connection = new StompConnection(ws, {
            db: deps.db,
            caller,
            broker,
            audience,
            authorizeCall: deps.authorizeCall,
            forward: publish,
            config: deps.config.realtime,
            stillSignedIn: () => stillSignedIn(token),
            log,
            id: randomUUID(),
          });
          connections.add(connection);
          // An access token is good until it expires; then the client reconnects with a fresh one.
          const expiry =
            expiresAt === undefined
              ? undefined
              : setTimeout(
                  () => connection.close(4001, 'Access token expired'),
                  Math.max(0, expiresAt - deps.clock().getTime()),
                );
          expiry?.unref();
          // A connection that only listens still ends within a minute of a logout or ban.
          const recheck =
            token === undefined
              ? undefined
              : setInterval(() => {
                  stillSignedIn(token).then(
                    (valid) => {
                      if (!valid) connection.close(4001, 'Session ended');
                    },
                    (error: unknown) => log.error({ err: error }, 'realtime: session check failed'),
                  );
                }, sessionRecheckMs);
          recheck?.unref();
          ws.on('close', () => {
            clearTimeout(expiry);
            clearInterval(recheck);
            connections.delete(connection);
          });
        });
      },
      (error: unknown) => {
        if (error instanceof AppError && error.code === 'forbidden')
          reject(socket, 403, 'Forbidden');
        else if (error instanceof AppError) reject(socket, 401, 'Unauthorized');
        else {
          log.error({ err: error }, 'realtime: upgrade failed');
          reject(socket, 500, 'Internal Server Error');
        }
      },
    );
  }
  app.server.on('upgrade', onUpgrade);

  app.addHook('preClose', async () => {
    app.server.off('upgrade', onUpgrade);
    await Promise.all([...connections].map((connection) => connection.shutdown()));
    wss.close();
  });
  app.addHook('onClose', async () => {
    await bus?.close();
  });

  const realtime: Realtime = {
    publisher,
    broker,
    stats() {
      let subscriptions = 0;
      for (const connection of connections) subscriptions += connection.subscriptionCount;
      return { connections: connections.size, subscriptions };
    },
  };
  app.decorate('realtime', realtime);
  return realtime;
}

function reject(socket: Duplex, status: number, text: string) {
  if (socket.destroyed) return;
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${text.length}\r\n\r\n${text}`,
  );
}
