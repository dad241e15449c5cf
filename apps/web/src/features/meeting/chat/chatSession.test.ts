import { createHash } from 'node:crypto';
import {
  chatFileChunkBytes,
  chatFileMaxBytes,
  chatMessageMaxLength,
} from '@upnext/contract/meetings';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ChatChannel, ChatSession, type FileTransfer } from './chatSession.ts';
import {
  FAKE_SEND_QUEUE_LIMIT,
  type FakeDataChannel,
  fakeChannelPair,
  openPair,
} from './fakeChannelPair.ts';

const sessions: ChatSession[] = [];
const blobs = new Map<string, Blob>();
let urlCount = 0;
const revoked: string[] = [];

afterEach(() => {
  for (const session of sessions.splice(0)) session.dispose();
  blobs.clear();
  revoked.length = 0;
});

function chat(channel: ChatChannel): ChatSession {
  const session = new ChatSession(channel, {
    createObjectURL: (blob) => {
      const url = `blob:test/${++urlCount}`;
      blobs.set(url, blob);
      return url;
    },
    revokeObjectURL: (url) => revoked.push(url),
  });
  sessions.push(session);
  return session;
}

async function linked(options: Parameters<typeof fakeChannelPair>[0] = {}) {
  const [a, b] = fakeChannelPair(options);
  const alice = chat(a);
  const bob = chat(b);
  await vi.waitFor(() => expect(alice.getSnapshot().open && bob.getSnapshot().open).toBe(true));
  return { a, b, alice, bob };
}

/** Deterministic bytes that are not a repeating pattern a mistake could preserve. */
function bytes(size: number, seed = 1): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(size);
  const words = new Uint32Array(data.buffer, 0, Math.floor(size / 4));
  let x = seed;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  for (let i = words.length * 4; i < size; i++) data[i] = i & 0xff;
  return data;
}

const sha = (data: Uint8Array | ArrayBuffer) =>
  createHash('sha256')
    .update(data instanceof ArrayBuffer ? new Uint8Array(data) : data)
    .digest('hex');

const transfer = (session: ChatSession, id?: string): FileTransfer => {
  const all = session.getSnapshot().transfers;
  const found = id ? all.find((t) => t.id === id) : all.at(-1);
  if (!found) throw new Error('no such transfer');
  return found;
};

/**
 * Resolves when the newest transfer of `session` first counts bytes: a cancel made then goes
 * out before the fake channel's next delivery. Polling (`vi.waitFor`, every 50 ms) let a loaded
 * machine's channel deliver the whole file first, and the test failed with nothing wrong.
 */
function firstBytes(session: ChatSession): Promise<void> {
  return new Promise((resolve) => {
    const stop = session.subscribe(() => {
      if ((session.getSnapshot().transfers.at(-1)?.bytes ?? 0) > 0) {
        stop();
        resolve();
      }
    });
  });
}

async function downloaded(session: ChatSession, id?: string): Promise<Uint8Array> {
  const url = transfer(session, id).url;
  const blob = url ? blobs.get(url) : undefined;
  if (!blob) throw new Error('no download');
  return new Uint8Array(await blob.arrayBuffer());
}

/** Larger than what the sender queues before waiting for the buffer to drain. */
const BIG = 12 * 1024 * 1024;

/** Counts the chunks a channel is asked to send. */
function countChunks(channel: FakeDataChannel): { count: number } {
  const counter = { count: 0 };
  const send = channel.send.bind(channel);
  vi.spyOn(channel, 'send').mockImplementation((payload) => {
    if (typeof payload !== 'string') counter.count++;
    send(payload);
  });
  return counter;
}

const ticks = (n: number) => new Promise((resolve) => setTimeout(resolve, n));

/** Sends a raw control message or chunk from channel `from`, as a peer running other code would. */
function raw(from: FakeDataChannel, message: object | Uint8Array<ArrayBuffer>) {
  from.send(message instanceof Uint8Array ? message : JSON.stringify(message));
}

describe('chat messages', () => {
  it('sends trimmed text both ways as { msg, sender, type }', async () => {
    const { alice, bob } = await linked();
    const heard = vi.fn();
    bob.onIncoming(heard);

    expect(alice.sendText('  Hello, doctor  \n')).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(bob.getSnapshot().messages).toHaveLength(1));
    expect(bob.sendText('Hello Ada')).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(alice.getSnapshot().messages).toHaveLength(2));

    const strip = (session: ChatSession) =>
      session.getSnapshot().messages.map(({ msg, sender, type }) => ({ msg, sender, type }));
    expect(strip(alice)).toEqual([
      { msg: 'Hello, doctor', sender: 'me', type: 'text' },
      { msg: 'Hello Ada', sender: 'other', type: 'text' },
    ]);
    expect(strip(bob)).toEqual([
      { msg: 'Hello, doctor', sender: 'other', type: 'text' },
      { msg: 'Hello Ada', sender: 'me', type: 'text' },
    ]);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(heard.mock.calls[0]?.[0]).toMatchObject({ msg: 'Hello, doctor', sender: 'other' });
  });

  it('sends nothing, and says why, when the text is blank or too long', async () => {
    const { a, alice } = await linked();
    const send = vi.spyOn(a, 'send');
    expect(alice.sendText('   \n\t ')).toEqual({ ok: false, reason: 'empty' });
    expect(alice.sendText('x'.repeat(chatMessageMaxLength + 1))).toEqual({
      ok: false,
      reason: 'too_long',
    });
    expect(alice.sendText(` ${'x'.repeat(chatMessageMaxLength)} `)).toMatchObject({ ok: true });
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('sends nothing until the channel is open, and nothing once it has closed', async () => {
    const [a, b] = fakeChannelPair({ open: false });
    const alice = chat(a);
    const bob = chat(b);
    const send = vi.spyOn(a, 'send');
    expect(alice.getSnapshot().open).toBe(false);
    expect(alice.sendText('Are you there?')).toEqual({ ok: false, reason: 'not_open' });
    expect(alice.sendFile(new File(['x'], 'a.txt'))).toEqual({ ok: false, reason: 'not_open' });
    expect(send).not.toHaveBeenCalled();
    expect(alice.getSnapshot().messages).toEqual([]);

    openPair(a);
    await vi.waitFor(() => expect(alice.getSnapshot().open).toBe(true));
    expect(alice.sendText('Now?')).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(bob.getSnapshot().messages).toHaveLength(1));

    a.close();
    await vi.waitFor(() => expect(bob.getSnapshot().open).toBe(false));
    expect(bob.sendText('Hello?')).toEqual({ ok: false, reason: 'not_open' });
    expect(bob.getSnapshot().messages.map((m) => m.msg)).toEqual(['Now?']);
  });

  it('ignores control messages that are malformed, unknown or oversized', async () => {
    const { a, bob } = await linked();
    a.send('not json');
    raw(a, { type: 'shout', msg: 'hi' });
    raw(a, { type: 'text', msg: '' });
    raw(a, { type: 'text', msg: 'x'.repeat(chatMessageMaxLength + 1) });
    raw(a, { type: 'text', msg: 42 });
    raw(a, { type: 'file-end', id: 'nope', sha256: 'zz' });
    raw(a, bytes(100)); // a chunk with no file announced
    raw(a, { type: 'text', msg: 'still here' });
    await vi.waitFor(() => expect(bob.getSnapshot().messages).toHaveLength(1));
    expect(bob.getSnapshot().messages[0]).toMatchObject({ msg: 'still here', sender: 'other' });
    expect(bob.getSnapshot().transfers).toEqual([]);
  });
});

// Generous limits for a loaded machine (jsdom's Blob is slow); nothing here is timed.
describe('file transfer', { timeout: 30_000 }, () => {
  const slow = { timeout: 10_000 };
  it('sends a file in 16384-byte chunks with its name, size and type, checked on arrival', async () => {
    const { a, alice, bob } = await linked();
    const data = bytes(3 * chatFileChunkBytes + 123);
    const sent: number[] = [];
    const send = a.send.bind(a);
    vi.spyOn(a, 'send').mockImplementation((payload) => {
      if (typeof payload !== 'string') sent.push(payload.byteLength);
      send(payload);
    });

    const result = alice.sendFile(new File([data], 'scan.pdf', { type: 'application/pdf' }));
    expect(result.ok).toBe(true);
    await vi.waitFor(() => expect(transfer(alice).status).toBe('complete'));

    expect(sent).toEqual([chatFileChunkBytes, chatFileChunkBytes, chatFileChunkBytes, 123]);
    expect(transfer(bob)).toMatchObject({
      direction: 'in',
      name: 'scan.pdf',
      size: data.byteLength,
      mime: 'application/pdf',
      bytes: data.byteLength,
      status: 'complete',
    });
    expect(transfer(alice)).toMatchObject({ direction: 'out', bytes: data.byteLength });
    expect(sha(await downloaded(bob))).toBe(sha(data));
    expect(bob.getSnapshot().messages.at(-1)).toMatchObject({
      msg: 'scan.pdf',
      sender: 'other',
      type: 'file',
      transferId: transfer(bob).id,
    });
    expect(alice.getSnapshot().messages.at(-1)).toMatchObject({ sender: 'me', type: 'file' });
  });

  it('sends an empty file, and files one after another while text goes at once', async () => {
    const { alice, bob } = await linked();
    const first = bytes(70_000, 7);
    alice.sendFile(new File([first], 'one.bin'));
    alice.sendFile(new File([], 'empty.txt', { type: 'text/plain' }));
    alice.sendText('both sent');
    await vi.waitFor(() =>
      expect(bob.getSnapshot().transfers.map((t) => t.status)).toEqual(['complete', 'complete']),
    );
    const [one, empty] = bob.getSnapshot().transfers;
    expect(sha(await downloaded(bob, one?.id))).toBe(sha(first));
    expect((await downloaded(bob, empty?.id)).byteLength).toBe(0);
    // Text is not held back behind files waiting their turn.
    expect(bob.getSnapshot().messages.map((m) => [m.type, m.msg])).toEqual([
      ['file', 'one.bin'],
      ['text', 'both sent'],
      ['file', 'empty.txt'],
    ]);
  });

  it('offers the download as bytes, never as the type the sender claims', async () => {
    const { alice, bob } = await linked();
    alice.sendFile(
      new File(['<script>alert(1)</script>'], '../../evil\u0000.html', { type: 'text/html' }),
    );
    await vi.waitFor(() => expect(transfer(bob).status).toBe('complete'));
    const url = transfer(bob).url ?? '';
    expect(blobs.get(url)?.type).toBe('application/octet-stream');
    // No path survives in the name it is shown and saved under.
    expect(transfer(bob).name).toBe('.._.._evil_.html');
  });

  it('reports a SHA-256 mismatch on both sides and offers no download', async () => {
    const tamper = (data: ArrayBuffer) => {
      const copy = new Uint8Array(data.slice(0));
      copy[copy.length >> 1] = (copy[copy.length >> 1] ?? 0) ^ 0xff;
      return copy.buffer;
    };
    const { alice, bob } = await linked({ tamper });
    alice.sendFile(new File([bytes(50_000)], 'x-ray.png', { type: 'image/png' }));
    await vi.waitFor(() => expect(transfer(alice).status).toBe('failed'));
    expect(transfer(alice).failure).toBe('hash_mismatch');
    expect(transfer(bob)).toMatchObject({ status: 'failed', failure: 'hash_mismatch' });
    expect(transfer(bob).url).toBeUndefined();
    expect(blobs.size).toBe(0);
  });

  it('lets the sender cancel; the receiver is told and the next file still arrives', async () => {
    const { a, alice, bob } = await linked({ bytesPerTick: 256 * 1024 });
    const chunks = countChunks(a);
    const arriving = firstBytes(bob);
    const sent = alice.sendFile(new File([bytes(BIG)], 'big.bin'));
    if (!sent.ok) throw new Error('refused');
    await arriving;
    alice.cancel(sent.id);
    const sentWhenCancelled = chunks.count;
    expect(transfer(alice)).toMatchObject({ status: 'cancelled', cancelledBy: 'me' });
    await vi.waitFor(
      () => expect(transfer(bob)).toMatchObject({ status: 'cancelled', cancelledBy: 'other' }),
      slow,
    );
    expect(transfer(bob).bytes).toBeLessThan(BIG);
    await ticks(50);
    expect(chunks.count).toBe(sentWhenCancelled);

    const next = bytes(40_000, 3);
    alice.sendFile(new File([next], 'next.bin'));
    await vi.waitFor(() => expect(transfer(bob).status).toBe('complete'), slow);
    expect(sha(await downloaded(bob))).toBe(sha(next));
  });

  it('lets the receiver cancel; the sender stops, and chunks still on the way are dropped', async () => {
    const { a, alice, bob } = await linked({ bytesPerTick: 256 * 1024 });
    const chunks = countChunks(a);
    const arriving = firstBytes(bob);
    alice.sendFile(new File([bytes(BIG)], 'big.bin'));
    await arriving;
    bob.cancel(transfer(bob).id);
    expect(transfer(bob)).toMatchObject({ status: 'cancelled', cancelledBy: 'me' });
    await vi.waitFor(
      () => expect(transfer(alice)).toMatchObject({ status: 'cancelled', cancelledBy: 'other' }),
      slow,
    );
    // The sender stopped: far from the whole file went out, and nothing more goes.
    const stoppedAt = chunks.count;
    expect(stoppedAt * chatFileChunkBytes).toBeLessThan(BIG);
    await ticks(50);
    expect(chunks.count).toBe(stoppedAt);

    const next = bytes(100_000, 5);
    alice.sendFile(new File([next], 'next.bin'));
    await vi.waitFor(() => expect(transfer(bob).status).toBe('complete'), slow);
    expect(sha(await downloaded(bob))).toBe(sha(next));
    expect(bob.getSnapshot().transfers.map((t) => t.status)).toEqual(['cancelled', 'complete']);
  });

  it('fails both sides plainly when the channel closes mid-transfer', async () => {
    const { a, alice, bob } = await linked({ bytesPerTick: 64 * 1024 });
    alice.sendFile(new File([bytes(4 * 1024 * 1024)], 'big.bin'));
    await vi.waitFor(() => expect(transfer(bob).bytes).toBeGreaterThan(0), slow);
    a.close();
    await vi.waitFor(() =>
      expect(transfer(alice)).toMatchObject({ status: 'failed', failure: 'channel_closed' }),
    );
    expect(transfer(bob)).toMatchObject({ status: 'failed', failure: 'channel_closed' });
  });

  it('refuses a file larger than the maximum, before sending anything', async () => {
    const { a, alice } = await linked();
    const send = vi.spyOn(a, 'send');
    const huge = { name: 'huge.iso', type: '', size: chatFileMaxBytes + 1 } as File;
    expect(alice.sendFile(huge)).toEqual({ ok: false, reason: 'too_large' });
    expect(send).not.toHaveBeenCalled();
  });

  it('refuses an announced size above the maximum and tells the sender', async () => {
    const { a, b, bob } = await linked();
    const answers: unknown[] = [];
    a.addEventListener('message', (event) => {
      const data = (event as MessageEvent).data;
      if (typeof data === 'string') answers.push(JSON.parse(data));
    });
    raw(a, {
      type: 'file-start',
      id: 'f1',
      name: 'huge.iso',
      size: chatFileMaxBytes + 1,
      mime: 'x/y',
    });
    raw(a, bytes(chatFileChunkBytes));
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    expect(answers[0]).toEqual({
      type: 'file-cancel',
      id: 'f1',
      side: 'receiver',
      reason: 'too_large',
    });
    expect(transfer(bob)).toMatchObject({ status: 'failed', failure: 'too_large', bytes: 0 });
    expect(b.readyState).toBe('open');
  });

  it('fails a transfer whose sender sends more bytes than it announced, or ends it early', async () => {
    const { a, bob } = await linked();
    raw(a, { type: 'file-start', id: 'f1', name: 'a.bin', size: 10, mime: 'x/y' });
    raw(a, bytes(11));
    await vi.waitFor(() =>
      expect(transfer(bob)).toMatchObject({ status: 'failed', failure: 'protocol' }),
    );
    raw(a, { type: 'file-start', id: 'f2', name: 'b.bin', size: 10, mime: 'x/y' });
    raw(a, bytes(5));
    raw(a, { type: 'file-end', id: 'f2', sha256: sha(bytes(5)) });
    await vi.waitFor(() =>
      expect(bob.getSnapshot().transfers.map((t) => [t.name, t.status, t.failure])).toEqual([
        ['a.bin', 'failed', 'protocol'],
        ['b.bin', 'failed', 'protocol'],
      ]),
    );
  });

  it('revokes its download links when disposed', async () => {
    const { alice, bob } = await linked();
    alice.sendFile(new File([bytes(1000)], 'a.bin'));
    await vi.waitFor(() => expect(transfer(bob).status).toBe('complete'));
    const url = transfer(bob).url;
    bob.dispose();
    expect(revoked).toEqual([url]);
  });

  it('delivers a 100 MiB file intact, with flow control keeping the send queue under the limit', {
    timeout: 120_000,
  }, async () => {
    const { a, alice, bob } = await linked({ bytesPerTick: 4 * 1024 * 1024 });
    const size = 100 * 1024 * 1024;
    const data = bytes(size, 2026);
    const expected = sha(data);
    const progress: number[] = [];
    bob.subscribe(() => {
      const last = bob.getSnapshot().transfers.at(-1);
      if (last && progress.at(-1) !== last.bytes) progress.push(last.bytes);
    });

    const sent = alice.sendFile(new File([data], 'scan-series.dcm'));
    expect(sent.ok).toBe(true);
    await vi.waitFor(() => expect(['complete', 'failed']).toContain(transfer(alice).status), {
      timeout: 110_000,
      interval: 100,
    });
    expect(transfer(alice).status).toBe('complete');

    expect(transfer(bob)).toMatchObject({ status: 'complete', size, bytes: size });
    expect(sha(await downloaded(bob))).toBe(expected);
    // Flow control held: the queue stayed well under the 16 MiB at which send() throws.
    expect(a.maxBufferedAmount).toBeGreaterThan(0);
    expect(a.maxBufferedAmount).toBeLessThan(FAKE_SEND_QUEUE_LIMIT * 0.75);
    // Progress on the receiving side went up in steps, not once at the end.
    expect(progress.length).toBeGreaterThan(50);
    expect(progress).toEqual([...progress].sort((x, y) => x - y));
  });
});
