/**
 * Child process of realtime-fanout.ts: opens N STOMP connections over `ws` to the given
 * endpoint, subscribes each to one destination (waiting for every RECEIPT), or with `bare`
 * N plain WebSocket connections to the floor's server, then for every
 * MESSAGE records the arrival time (performance.timeOrigin + now(): comparable across
 * processes on one machine) and reports per round to the parent over IPC.
 */
import { WebSocket } from 'ws';

const [url, destination, countText, mode = 'stomp', burstText = '1'] = process.argv.slice(2);
/** Messages per round: a round is complete when every client has them all. */
const burst = Number(burstText);
const count = Number(countText);
if (!url || !destination || !Number.isInteger(count)) {
  console.error('usage: realtime-clients.ts <ws url> <destination> <count> [stomp|bare] [burst]');
  process.exit(2);
}

const now = () => performance.timeOrigin + performance.now();
const arrivals = new Map<number, number[]>();
const sockets: WebSocket[] = [];
let subscribed = 0;

function open(index: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url as string, ['v12.stomp'], { perMessageDeflate: false });
    sockets.push(ws);
    ws.on('error', reject);
    ws.on('open', () => {
      if (mode === 'bare') {
        // The floor's clients: nothing to subscribe to, every broadcast arrives.
        subscribed++;
        resolve();
        if (subscribed === count) process.send?.({ kind: 'ready' });
        return;
      }
      ws.send('CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0');
      ws.send(`SUBSCRIBE\nid:0\ndestination:${destination}\nreceipt:${index}\n\n\0`);
    });
    ws.on('message', (data) => {
      const text = String(data);
      if (text.startsWith('MESSAGE')) {
        const at = now();
        const round = Number(/"round":(\d+)/.exec(text)?.[1]);
        let list = arrivals.get(round);
        if (!list) {
          list = [];
          arrivals.set(round, list);
        }
        list.push(at);
        if (list.length === count * burst) {
          process.send?.({ kind: 'round', round, arrivals: list });
          arrivals.delete(round);
        }
      } else if (text.startsWith('RECEIPT')) {
        subscribed++;
        resolve();
        if (subscribed === count) process.send?.({ kind: 'ready' });
      } else if (text.startsWith('ERROR')) {
        reject(new Error(text));
      }
    });
  });
}

// Open in batches, so the server's accept queue and the token check are not flooded.
for (let start = 0; start < count; start += 200) {
  const batch = [];
  for (let i = start; i < Math.min(count, start + 200); i++) batch.push(open(i));
  await Promise.all(batch);
}

process.on('message', (message: { kind: string }) => {
  if (message.kind === 'stop') {
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
});
