/**
 * In-browser pieces of the call benchmarks (bench/calls.ts): Debian's Chromium with the call
 * flags, a blank page on a secure origin, a signalling bridge between two pages, and the bare
 * floors that run in the page (a plain RTCPeerConnection pair, a plain data channel).
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { chromium } from '@playwright/test';
import { callFlags, chromiumPath, headlessFlags } from '../e2e/chromium.ts';

/** Chromium as the call tests start it (e2e/chromium.ts): headless as root, fake media, loopback ICE. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [...headlessFlags, ...callFlags],
  });
}

/** An origin that needs no server and is secure (localhost), for getUserMedia. */
export const blankOrigin = 'http://localhost:9/';

/** A page on `blankOrigin` serving `html` (a blank document by default). */
export async function blankPage(
  context: BrowserContext,
  html = '<!doctype html><title>bench</title>',
) {
  const page = await context.newPage();
  await page.route(`${blankOrigin}**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: html }),
  );
  await page.goto(blankOrigin);
  return page;
}

/**
 * Records every RTCPeerConnection the page makes and, for each, the page time at which its
 * first inbound video frame was decoded (getStats polled every 5 ms once a video track
 * arrives): `window.__firstFrameAt`. The same measurement for the product and the floor.
 */
export const firstFrameProbe = () => {
  const w = window as unknown as {
    __peers: RTCPeerConnection[];
    __firstFrameAt?: number;
  };
  if (w.__peers) return;
  w.__peers = [];
  const Native = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Native {
    constructor(configuration?: RTCConfiguration) {
      super(configuration);
      w.__peers.push(this);
      this.addEventListener('track', (event) => {
        if (event.track.kind !== 'video') return;
        const poll = async () => {
          if (w.__firstFrameAt !== undefined || this.connectionState === 'closed') return;
          let frames = 0;
          (await this.getStats(event.track)).forEach((report) => {
            if (report.type === 'inbound-rtp') frames += report.framesDecoded ?? 0;
          });
          if (frames > 0) w.__firstFrameAt ??= performance.now();
          else setTimeout(poll, 5);
        };
        void poll();
      });
    }
  };
};

/** Two pages that can SEND to each other: `window.__send(msg)` calls the other's `__onSignal`. */
export async function bridge(a: Page, b: Page): Promise<void> {
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    await from.exposeBinding('__send', async (_source, message: unknown) => {
      await to.evaluate((m) => {
        const w = window as unknown as { __onSignal?: (m: unknown) => void; __inbox?: unknown[] };
        if (w.__onSignal) w.__onSignal(m);
        else {
          w.__inbox ??= [];
          w.__inbox.push(m);
        }
      }, message);
    });
  }
}

type Signal =
  | { type: 'offer' | 'answer'; sdp: string }
  | { type: 'candidate'; candidate: RTCIceCandidateInit };

/**
 * The floor of call set-up, caller side: camera and microphone, an offer, candidates trickled
 * (the state in which the callee's phone rings).
 */
export async function bareCaller(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const w = window as unknown as {
      __send: (m: Signal) => Promise<void>;
      __onSignal: (m: Signal) => void;
    };
    const pc = new RTCPeerConnection({ iceServers: [] });
    const pending: RTCIceCandidateInit[] = [];
    w.__onSignal = (m) => {
      if (m.type === 'answer') {
        void pc.setRemoteDescription(m).then(async () => {
          for (const c of pending.splice(0)) await pc.addIceCandidate(c);
        });
      } else if (m.type === 'candidate') {
        if (pc.remoteDescription) void pc.addIceCandidate(m.candidate);
        else pending.push(m.candidate);
      }
    };
    pc.addEventListener('icecandidate', (e) => {
      if (e.candidate) void w.__send({ type: 'candidate', candidate: e.candidate.toJSON() });
    });
    const media = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
    for (const track of media.getTracks()) pc.addTrack(track, media);
    pc.createDataChannel('chat');
    await pc.setLocalDescription(await pc.createOffer());
    await w.__send({ type: 'offer', sdp: pc.localDescription?.sdp ?? '' });
  });
}

/**
 * The floor of call set-up, callee side, the steps of the product's Answer (spec §4): camera
 * and microphone with echo cancellation, noise suppression and gain control; a connection;
 * the remote offer, queued candidates, the answer sent, candidates trickled. Answers the ms
 * from the start to the first remote video frame decoded (firstFrameProbe).
 */
export function bareAnswer(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const w = window as unknown as {
      __send: (m: Signal) => Promise<void>;
      __onSignal: (m: Signal) => void;
      __inbox?: Signal[];
      __firstFrameAt?: number;
    };
    const t0 = performance.now();
    const media = await navigator.mediaDevices.getUserMedia({
      video: true,
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    });
    const pc = new RTCPeerConnection({ iceServers: [] });
    for (const track of media.getTracks()) pc.addTrack(track, media);
    pc.addEventListener('icecandidate', (e) => {
      if (e.candidate) void w.__send({ type: 'candidate', candidate: e.candidate.toJSON() });
    });
    // Candidates that arrived while ringing, and any still arriving, wait for the offer.
    const inbox = w.__inbox ?? [];
    w.__onSignal = (m) => inbox.push(m);
    const offer = inbox.find((m) => m.type === 'offer');
    if (offer?.type !== 'offer') throw new Error('no offer arrived');
    await pc.setRemoteDescription(offer);
    for (const m of inbox) if (m.type === 'candidate') await pc.addIceCandidate(m.candidate);
    w.__onSignal = (m) => {
      if (m.type === 'candidate') void pc.addIceCandidate(m.candidate);
    };
    await pc.setLocalDescription(await pc.createAnswer());
    await w.__send({ type: 'answer', sdp: pc.localDescription?.sdp ?? '' });
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error('no remote frame in 20 s')), 20_000);
      const check = () => {
        if (w.__firstFrameAt !== undefined) {
          clearTimeout(deadline);
          resolve();
        } else setTimeout(check, 5);
      };
      check();
    });
    return (w.__firstFrameAt ?? Number.NaN) - t0;
  });
}

/**
 * The floor of file transfer, in one page: a connected pair of RTCPeerConnections over
 * loopback with an ordered data channel, and `bytes` random bytes sent through it the way
 * ARCHITECTURE.md describes (1 MiB blocks read from a Blob, 16 KiB chunks, flow control by
 * `bufferedAmountLowThreshold`). Answers ms from the first read to the last byte received,
 * and the SHA-256 of both sides, so a fast wrong answer cannot pass.
 */
export function bareDataChannel(page: Page, bytes: number) {
  return page.evaluate(async (size) => {
    const CHUNK = 16 * 1024;
    const BLOCK = 1024 * 1024;
    const HIGH = 8 * 1024 * 1024;
    const LOW = 1024 * 1024;
    const parts: Uint8Array[] = [];
    for (let made = 0; made < size; made += 65_536) {
      parts.push(crypto.getRandomValues(new Uint8Array(Math.min(65_536, size - made))));
    }
    const file = new Blob(parts as BlobPart[]);
    const a = new RTCPeerConnection();
    const b = new RTCPeerConnection();
    a.addEventListener('icecandidate', (e) => e.candidate && void b.addIceCandidate(e.candidate));
    b.addEventListener('icecandidate', (e) => e.candidate && void a.addIceCandidate(e.candidate));
    const sendChannel = a.createDataChannel('chat');
    sendChannel.binaryType = 'arraybuffer';
    const received: ArrayBuffer[] = [];
    let receivedBytes = 0;
    const done = new Promise<number>((resolve) => {
      b.addEventListener('datachannel', ({ channel }) => {
        channel.binaryType = 'arraybuffer';
        channel.addEventListener('message', ({ data }) => {
          received.push(data as ArrayBuffer);
          receivedBytes += (data as ArrayBuffer).byteLength;
          if (receivedBytes >= size) resolve(performance.now());
        });
      });
    });
    await a.setLocalDescription(await a.createOffer());
    await b.setRemoteDescription(a.localDescription as RTCSessionDescription);
    await b.setLocalDescription(await b.createAnswer());
    await a.setRemoteDescription(b.localDescription as RTCSessionDescription);
    await new Promise<void>((resolve) => {
      if (sendChannel.readyState === 'open') resolve();
      else sendChannel.addEventListener('open', () => resolve(), { once: true });
    });
    sendChannel.bufferedAmountLowThreshold = LOW;
    const drained = () =>
      new Promise<void>((resolve) =>
        sendChannel.addEventListener('bufferedamountlow', () => resolve(), { once: true }),
      );
    const t0 = performance.now();
    for (let offset = 0; offset < size; offset += BLOCK) {
      const block = await file.slice(offset, offset + BLOCK).arrayBuffer();
      for (let at = 0; at < block.byteLength; at += CHUNK) {
        if (sendChannel.bufferedAmount > HIGH) await drained();
        sendChannel.send(block.slice(at, at + CHUNK));
      }
    }
    const t1 = await done;
    const hex = async (data: Blob) =>
      Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', await data.arrayBuffer())))
        .map((x) => x.toString(16).padStart(2, '0'))
        .join('');
    const [sent, got] = await Promise.all([hex(file), hex(new Blob(received))]);
    a.close();
    b.close();
    return { ms: t1 - t0, intact: sent === got && receivedBytes === size };
  }, bytes);
}

/**
 * The product's chat module (apps/web/src/features/meeting/chat/chatSession.ts) bundled for a
 * bench page with esbuild from node_modules: `window.__chat.ChatSession`.
 */
export async function bundleChat(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    globalName: '__chat',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    minify: true,
  });
  return result.outputFiles[0]?.text ?? '';
}

/**
 * The product side of file transfer, in one page: the same connected pair as the floor, the
 * chat's negotiated data channel (id 0) on each end wrapped in the product's ChatSession, and
 * a File of `bytes` random bytes sent with `sendFile`. Answers ms from `sendFile` until the
 * receiving side's transfer is `complete` (the product checked its SHA-256), and whether the
 * downloaded bytes hash the same as the file sent.
 */
export async function productDataChannel(page: Page, bundle: string, bytes: number) {
  await page.addScriptTag({ content: bundle });
  return page.evaluate(async (size) => {
    type Transfer = { direction: 'in' | 'out'; status: string; url?: string; failure?: string };
    type Session = {
      sendFile(file: File): { ok: boolean; reason?: string };
      getSnapshot(): { open: boolean; transfers: readonly Transfer[] };
      subscribe(listener: () => void): () => void;
      dispose(): void;
    };
    const { ChatSession } = (
      window as unknown as { __chat: { ChatSession: new (channel: RTCDataChannel) => Session } }
    ).__chat;
    const parts: Uint8Array[] = [];
    for (let made = 0; made < size; made += 65_536) {
      parts.push(crypto.getRandomValues(new Uint8Array(Math.min(65_536, size - made))));
    }
    const file = new File(parts as BlobPart[], 'bench.bin', { type: 'application/octet-stream' });
    const a = new RTCPeerConnection();
    const b = new RTCPeerConnection();
    a.addEventListener('icecandidate', (e) => e.candidate && void b.addIceCandidate(e.candidate));
    b.addEventListener('icecandidate', (e) => e.candidate && void a.addIceCandidate(e.candidate));
    const sender = new ChatSession(a.createDataChannel('chat', { negotiated: true, id: 0 }));
    const receiver = new ChatSession(b.createDataChannel('chat', { negotiated: true, id: 0 }));
    await a.setLocalDescription(await a.createOffer());
    await b.setRemoteDescription(a.localDescription as RTCSessionDescription);
    await b.setLocalDescription(await b.createAnswer());
    await a.setRemoteDescription(b.localDescription as RTCSessionDescription);
    const when = (session: Session, test: () => boolean) =>
      new Promise<void>((resolve) => {
        if (test()) return resolve();
        const stop = session.subscribe(() => {
          if (!test()) return;
          stop();
          resolve();
        });
      });
    await when(sender, () => sender.getSnapshot().open);
    await when(receiver, () => receiver.getSnapshot().open);
    const arrived = () => receiver.getSnapshot().transfers.find((t) => t.direction === 'in');
    const t0 = performance.now();
    const sent = sender.sendFile(file);
    if (!sent.ok) throw new Error(`sendFile refused: ${sent.reason}`);
    await when(receiver, () =>
      ['complete', 'failed', 'cancelled'].includes(arrived()?.status ?? ''),
    );
    const t1 = performance.now();
    const transfer = arrived();
    const hex = async (data: Blob) =>
      Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', await data.arrayBuffer())))
        .map((x) => x.toString(16).padStart(2, '0'))
        .join('');
    let intact = false;
    if (transfer?.status === 'complete' && transfer.url) {
      const got = await (await fetch(transfer.url)).blob();
      intact = got.size === size && (await hex(got)) === (await hex(file));
    }
    sender.dispose();
    receiver.dispose();
    a.close();
    b.close();
    return { ms: t1 - t0, intact, status: transfer?.status, failure: transfer?.failure };
  }, bytes);
}

/** Records, in the page, when a button named Answer is pressed: `window.__answerAt`. */
export const answerClickProbe = () => {
  document.addEventListener(
    'click',
    (event) => {
      const button = (event.target as Element | null)?.closest('button');
      if (button?.textContent?.trim() === 'Answer') {
        (window as unknown as { __answerAt?: number }).__answerAt ??= performance.now();
      }
    },
    { capture: true },
  );
};
