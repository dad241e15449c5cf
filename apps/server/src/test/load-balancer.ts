import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP round-robin balancer for the two-instance test: each client connection goes to the
 * next backend, and to the other one when that refuses it (an instance that died), as nginx's
 * `proxy_next_upstream error` does in compose.yaml. WebSockets pass through untouched.
 */
export async function startLoadBalancer(backends: number[]): Promise<{
  port: number;
  close(): Promise<void>;
}> {
  let next = 0;
  const open = new Set<Socket>();
  const forward = (client: Socket, first: number, attempt: number) => {
    const port = backends[(first + attempt) % backends.length] as number;
    const upstream = connect({ host: '127.0.0.1', port });
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
    upstream.on('error', () => {
      upstream.destroy();
      // A backend that refused the connection (it died): the next one takes the client.
      if (!connected && attempt + 1 < backends.length) forward(client, first, attempt + 1);
      else client.destroy();
    });
    upstream.once('close', () => {
      if (connected) client.destroy();
    });
    client.once('close', () => upstream.destroy());
    open.add(upstream);
    upstream.once('close', () => open.delete(upstream));
  };
  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    const first = next;
    next = (next + 1) % backends.length;
    forward(client, first, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return {
    port: address.port,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
