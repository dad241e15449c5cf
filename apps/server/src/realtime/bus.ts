import { randomUUID } from 'node:crypto';
import type { NatsConnection } from 'nats';

/**
 * Carries events between server instances. Every instance delivers its own publishes locally
 * at once and sends them on the bus tagged with its id; what comes back from the bus with its
 * own id is dropped. So each instance delivers each event exactly once, wherever it started.
 */
export type RealtimeBus = {
  publish(destination: string, body: string): void;
  close(): Promise<void>;
};

export type BusOptions = {
  url: string;
  /** The Redis channel or NATS subject; tests give each run its own. */
  channel?: string;
  onMessage(destination: string, body: string): void;
  onError(error: unknown): void;
};

const defaultBusChannel = 'upnext.realtime';
const connectTimeoutMs = 10_000;

type Envelope = { o: string; d: string; b: string };

function decode(raw: string, self: string): Envelope | undefined {
  try {
    const value = JSON.parse(raw) as Partial<Envelope>;
    if (typeof value.o !== 'string' || typeof value.d !== 'string' || typeof value.b !== 'string') {
      return undefined;
    }
    return value.o === self ? undefined : (value as Envelope);
  } catch {
    return undefined;
  }
}

export async function connectBus(options: BusOptions): Promise<RealtimeBus> {
  const self = randomUUID();
  const channel = options.channel ?? defaultBusChannel;
  const encode = (destination: string, body: string) =>
    JSON.stringify({ o: self, d: destination, b: body } satisfies Envelope);
  const receive = (raw: string) => {
    const envelope = decode(raw, self);
    if (envelope) options.onMessage(envelope.d, envelope.b);
  };
  const protocol = new URL(options.url).protocol;
  if (protocol === 'redis:' || protocol === 'rediss:')
    return connectRedis(options, channel, encode, receive);
  if (protocol === 'nats:' || protocol === 'tls:')
    return connectNatsBus(options, channel, encode, receive);
  throw new Error(`Unsupported realtime bus URL scheme "${protocol}"`);
}

async function connectRedis(
  options: BusOptions,
  channel: string,
  encode: (destination: string, body: string) => string,
  receive: (raw: string) => void,
): Promise<RealtimeBus> {
  // Loaded only when configured: a single instance never pays for the bus clients at start.
  const { createClient } = await import('redis');
  // Pub/sub needs a connection of its own: a subscribed Redis connection only listens.
  const publisher = createClient({ url: options.url });
  const subscriber = publisher.duplicate();
  publisher.on('error', options.onError);
  subscriber.on('error', options.onError);
  // The client retries forever; a start must fail clearly instead of hanging.
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new Error(`realtime bus: Redis at ${new URL(options.url).host} does not answer`)),
      connectTimeoutMs,
    );
  });
  try {
    await Promise.race([Promise.all([publisher.connect(), subscriber.connect()]), timeout]);
  } catch (error) {
    publisher.destroy();
    subscriber.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  await subscriber.subscribe(channel, receive);
  return {
    publish(destination, body) {
      publisher.publish(channel, encode(destination, body)).catch(options.onError);
    },
    async close() {
      await subscriber.unsubscribe(channel).catch(() => {});
      await Promise.allSettled([subscriber.close(), publisher.close()]);
    },
  };
}

async function connectNatsBus(
  options: BusOptions,
  channel: string,
  encode: (destination: string, body: string) => string,
  receive: (raw: string) => void,
): Promise<RealtimeBus> {
  const { connect } = await import('nats');
  const url = new URL(options.url);
  let connection: NatsConnection;
  try {
    connection = await connect({
      servers: `${url.hostname}:${url.port || '4222'}`,
      ...(url.username ? { user: decodeURIComponent(url.username) } : {}),
      ...(url.password ? { pass: decodeURIComponent(url.password) } : {}),
      // The server does not echo our own publishes back (the origin check also drops them).
      noEcho: true,
      timeout: connectTimeoutMs,
      maxReconnectAttempts: -1,
    });
  } catch (error) {
    throw new Error(
      `realtime bus: NATS at ${url.host} does not answer (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  connection.subscribe(channel, {
    callback: (error, message) => {
      if (error) options.onError(error);
      else receive(decoder.decode(message.data));
    },
  });
  // The server knows of the subscription before the first publish of this instance.
  await connection.flush();
  void connection.closed().then((error) => {
    if (error) options.onError(error);
  });
  return {
    publish(destination, body) {
      try {
        connection.publish(channel, encoder.encode(encode(destination, body)));
      } catch (error) {
        options.onError(error);
      }
    },
    async close() {
      await connection.drain().catch(() => {});
    },
  };
}
