/**
 * The SMTP server of the outbox benchmark (bench/outbox.ts forks it): a real SMTP peer on a
 * free loopback port, in a process of its own like a mail relay would be, accepting every
 * message. Sends `{ port }` once listening; answers `'count'` with `{ count }` received.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

let count = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    stream.resume();
    stream.on('end', () => {
      count += 1;
      callback();
    });
  },
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.server.address() as AddressInfo).port });
});
process.on('message', (message) => {
  if (message === 'count') process.send?.({ count });
});
process.on('disconnect', () => server.close(() => process.exit(0)));
