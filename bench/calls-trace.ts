/**
 * Where call set-up spends its time (issue 12): the set-ups of bench/calls.ts (a bare pair,
 * then the product: real server, built app, live console, Incoming call dialog, Answer),
 * with every step of both pages stamped on one clock (performance.timeOrigin +
 * performance.now(), comparable across pages): fetches, getUserMedia, the peer connection's
 * calls and events, the STOMP frames sent and received, video stats (frames encoded, decoded),
 * the pages' long tasks, and the first remote frame. For each round: the phases (ms from
 * Answer, or from the floor's start) and the timeline; at the end, the medians of each phase.
 * Also the main thread's busy time of each page while ringing and during set-up (CDP
 * Performance metrics). A diagnostic, not a benchmark: the stamps cost time of their own.
 *
 *   npm run build && (cd bench && ../scripts/netns.sh node calls-trace.ts)
 *
 * Options: BENCH_CALL_ROUNDS (default 3) rounds of each side; BENCH_TRACE_TIMELINE=0 prints the
 * phases only; BENCH_TRACE_PROFILE=1 adds each product page's JavaScript CPU profile (top
 * functions by self time) during set-up.
 */
import { type Page, request } from '@playwright/test';
import { useSession } from '../e2e/tests/api-helpers.ts';
import { calledVisitor } from '../e2e/tests/calls/call-helpers.ts';
import { subscribed } from '../e2e/tests/realtime-helpers.ts';
import {
  answerClickProbe,
  bareAnswer,
  bareCaller,
  blankPage,
  bridge,
  firstFrameProbe,
  launchChromium,
} from './calls-browser.ts';
import { startServer } from './calls-server.ts';

const rounds = Number(process.env.BENCH_CALL_ROUNDS ?? 3);
const timeline = process.env.BENCH_TRACE_TIMELINE !== '0';
const profile = process.env.BENCH_TRACE_PROFILE === '1';

/** Stamps every step of a call in `window.__trace` (an init script). */
const traceProbe = () => {
  const w = window as unknown as { __trace: Array<[number, string]>; __traced?: boolean };
  if (w.__traced) return;
  w.__traced = true;
  w.__trace = [];
  const now = () => performance.timeOrigin + performance.now();
  const mark = (what: string) => w.__trace.push([now(), what]);
  (w as unknown as { __mark: typeof mark }).__mark = mark;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      w.__trace.push([
        performance.timeOrigin + e.startTime,
        `longtask ${e.duration.toFixed(0)} ms`,
      ]);
  }).observe({ type: 'longtask', buffered: true });
  document.addEventListener(
    'click',
    (e) => {
      const b = (e.target as Element | null)?.closest('button');
      if (b) mark(`click ${b.textContent?.trim()}`);
    },
    { capture: true },
  );
  const nativeFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = new URL(url, location.href).pathname;
    mark(`fetch ${init?.method ?? 'GET'} ${path}`);
    const response = await nativeFetch(input, init);
    mark(`fetched ${path} ${response.status}`);
    return response;
  };
  const gum = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (c) => {
    mark(`getUserMedia ${JSON.stringify(c).slice(0, 60)}`);
    const s = await gum(c);
    mark('getUserMedia resolved');
    return s;
  };
  const stomp = (data: unknown, dir: string) => {
    if (typeof data !== 'string') return;
    const command = data.split('\n', 1)[0] ?? '';
    const dest = /\ndestination:([^\n]*)/.exec(data)?.[1] ?? '';
    const body = data.slice(data.indexOf('\n\n') + 2);
    const type = /"type":"([^"]+)"/.exec(body)?.[1] ?? '';
    let extra = '';
    if (type === 'candidate') extra = / typ (\w+)/.exec(body)?.[1] ?? '';
    if (type === 'meeting.state') extra = /"state":"(\w+)"/.exec(body)?.[1] ?? '';
    if (command === 'SEND' || command === 'MESSAGE' || command === 'ERROR')
      mark(`ws ${dir} ${command} ${dest} ${type} ${extra}`);
  };
  const NativeWs = window.WebSocket;
  window.WebSocket = class extends NativeWs {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (e) => stomp(e.data, '<-'));
    }
    override send(data: Parameters<WebSocket['send']>[0]) {
      stomp(data, '->');
      super.send(data);
    }
  };
  const Native = window.RTCPeerConnection;
  let n = 0;
  window.RTCPeerConnection = class extends Native {
    constructor(configuration?: RTCConfiguration) {
      const id = ++n;
      mark(`pc${id} new ${JSON.stringify(configuration?.iceServers ?? [])}`);
      super(configuration);
      const m = (what: string) => mark(`pc${id} ${what}`);
      this.addEventListener('icecandidate', (e) =>
        m(
          `icecandidate ${e.candidate ? (/ typ (\w+)/.exec(e.candidate.candidate)?.[1] ?? '?') : 'end'}`,
        ),
      );
      this.addEventListener('icegatheringstatechange', () =>
        m(`gathering ${this.iceGatheringState}`),
      );
      this.addEventListener('iceconnectionstatechange', () => m(`ice ${this.iceConnectionState}`));
      this.addEventListener('connectionstatechange', () => m(`conn ${this.connectionState}`));
      this.addEventListener('signalingstatechange', () => m(`signaling ${this.signalingState}`));
      this.addEventListener('track', (e) => m(`track ${e.track.kind} muted=${e.track.muted}`));
      let last = '';
      const poll = async () => {
        if (this.connectionState === 'closed') return;
        const parts: string[] = [];
        (await this.getStats()).forEach((r) => {
          if (r.kind !== 'video') return;
          if (r.type === 'outbound-rtp')
            parts.push(
              `out enc=${r.framesEncoded ?? 0} key=${r.keyFramesEncoded ?? 0} sent=${r.framesSent ?? 0} pkts=${r.packetsSent ?? 0} ${r.frameWidth ?? 0}x${r.frameHeight ?? 0} pli=${r.pliCount ?? 0} lim=${r.qualityLimitationReason ?? ''}`,
            );
          if (r.type === 'inbound-rtp')
            parts.push(
              `in pkts=${r.packetsReceived ?? 0} recv=${r.framesReceived ?? 0} dec=${r.framesDecoded ?? 0} key=${r.keyFramesDecoded ?? 0} pli=${r.pliCount ?? 0} fir=${r.firCount ?? 0}`,
            );
        });
        const line = parts.join(' | ');
        if (line !== last) {
          last = line;
          m(`stats ${line}`);
        }
        if (!/dec=[1-9]/.test(line) || !/sent=[1-9]/.test(line)) setTimeout(poll, 20);
      };
      this.addEventListener('connectionstatechange', () => {
        if (this.connectionState === 'connecting') void poll();
      });
      for (const name of [
        'setRemoteDescription',
        'setLocalDescription',
        'createAnswer',
        'createOffer',
        'addIceCandidate',
      ] as const) {
        const methods = this as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
        const original = methods[name]?.bind(this);
        if (!original) continue;
        methods[name] = async (...args: unknown[]) => {
          m(`${name}()`);
          try {
            return await original(...args);
          } finally {
            m(`${name} done`);
          }
        };
      }
    }
  };
};

const traceOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __trace: Array<[number, string]> }).__trace);

const summaries: Record<string, Array<Record<string, number>>> = { floor: [], product: [] };
/** The time of the first event matching `re` at or after `from` (relative to the start). */
function phases(events: Array<readonly [number, string]>, zero: number) {
  const at = (re: RegExp) => {
    const hit = events.find(([t, s]) => t >= zero && re.test(s));
    return hit ? hit[0] - zero : Number.NaN;
  };
  return {
    'V ice-servers fetched': at(/^V fetched .*ice-servers/),
    'V sRD(offer) done': at(/^V pc1 setRemoteDescription done/),
    'V answer sent': at(/^V (ws -> SEND \/app\/call answer|pc1 setLocalDescription done)/),
    'S answer received': at(/^S +(ws <- MESSAGE .* answer|pc1 setRemoteDescription\(\))/),
    'S sRD(answer) done': at(/^S +pc1 setRemoteDescription done/),
    'V ice connected': at(/^V pc1 ice connected/),
    'V dtls connected': at(/^V pc1 conn connected/),
    'S dtls connected': at(/^S +pc1 conn connected/),
    'S first encoded': at(/^S +pc1 stats .*out enc=[1-9]/),
    'first frame': at(/=== first remote frame/),
  };
}

function print(
  title: string,
  events: Array<readonly [number, string]>,
  zero: string,
  side: string,
) {
  events.sort((a, b) => a[0] - b[0]);
  const click = events.find(([, s]) => s.includes(zero))?.[0] ?? 0;
  const summary = phases(events, click);
  summaries[side]?.push(summary);
  console.log(`\n### ${title}`);
  console.log(
    Object.entries(summary)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(' · '),
  );
  if (timeline) {
    for (const [t, s] of events) {
      if (t < click - 3000) continue;
      console.log(`${(t - click).toFixed(1).padStart(9)}  ${s}`);
    }
  }
}

const browser = await launchChromium();
const server = await startServer(3701);
try {
  for (let round = 0; round < rounds; round++) {
    {
      const callerContext = await browser.newContext();
      const calleeContext = await browser.newContext();
      const caller = await blankPage(callerContext);
      const callee = await blankPage(calleeContext);
      await caller.evaluate(traceProbe);
      await callee.evaluate(traceProbe);
      await callee.evaluate(firstFrameProbe);
      await bridge(caller, callee);
      await bareCaller(caller);
      await callee.waitForFunction(() => {
        const inbox = (window as unknown as { __inbox?: Array<{ type: string }> }).__inbox ?? [];
        return inbox.some((m) => m.type === 'offer') && inbox.some((m) => m.type === 'candidate');
      });
      await callee.waitForTimeout(300);
      await callee.evaluate(() =>
        (window as unknown as { __mark: (s: string) => void }).__mark('--- start'),
      );
      const ms = await bareAnswer(callee);
      const frame = await callee.evaluate(
        () =>
          performance.timeOrigin + (window as unknown as { __firstFrameAt: number }).__firstFrameAt,
      );
      print(
        `floor round ${round + 1}: ${ms.toFixed(0)} ms`,
        [
          ...(await traceOf(callee)).map(([t, s]) => [t, `V ${s}`] as const),
          ...(await traceOf(caller)).map(([t, s]) => [t, `S     ${s}`] as const),
          [frame, 'V === first remote frame decoded'] as const,
        ],
        '--- start',
        'floor',
      );
      await callerContext.close();
      await calleeContext.close();
    }
    const api = await request.newContext({ baseURL: server.url });
    const staffContext = await browser.newContext({ baseURL: server.url });
    const visitorContext = await browser.newContext({ baseURL: server.url });
    try {
      const world = await calledVisitor(api, 'T');
      const visitor = await visitorContext.newPage();
      await visitor.addInitScript(traceProbe);
      await visitor.addInitScript(firstFrameProbe);
      await visitor.addInitScript(answerClickProbe);
      await useSession(visitor, world.visitor);
      const listening = subscribed(visitor, '/topic/meeting/');
      await visitor.goto('/admin/my-sessions');
      await listening;
      const staff = await staffContext.newPage();
      await staff.addInitScript(traceProbe);
      await useSession(staff, world.staff);
      await staff.goto(`/admin/live-sessions/all/${world.today}/${world.sessionId}`);
      await staff.getByRole('button', { name: 'Video call' }).click();
      const dialog = visitor.getByRole('dialog', { name: 'Incoming call' });
      await dialog.waitFor({ state: 'visible', timeout: 30_000 });
      await visitor.waitForTimeout(300);
      const cdpV = await visitorContext.newCDPSession(visitor);
      const cdpS = await staffContext.newCDPSession(staff);
      await cdpV.send('Performance.enable');
      await cdpS.send('Performance.enable');
      const metrics = async (cdp: typeof cdpV) =>
        Object.fromEntries(
          (await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]),
        );
      if (profile) {
        for (const cdp of [cdpV, cdpS]) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
          await cdp.send('Profiler.start');
        }
      }
      {
        const b = { V: await metrics(cdpV), S: await metrics(cdpS) };
        await visitor.waitForTimeout(1000);
        const a = { V: await metrics(cdpV), S: await metrics(cdpS) };
        for (const side of ['V', 'S'] as const) {
          const d = (k: string) => (((a[side][k] ?? 0) - (b[side][k] ?? 0)) * 1000).toFixed(0);
          console.log(
            `${side} main thread while ringing: task ${d('TaskDuration')} ms, script ${d('ScriptDuration')}, layout ${d('LayoutDuration')}, style ${d('RecalcStyleDuration')}, wall ${(((a[side].Timestamp ?? 0) - (b[side].Timestamp ?? 0)) * 1000).toFixed(0)}`,
          );
        }
      }
      const before = { V: await metrics(cdpV), S: await metrics(cdpS) };
      await visitor.evaluate(() =>
        (window as unknown as { __mark: (s: string) => void }).__mark('--- Answer click'),
      );
      await dialog.getByRole('button', { name: 'Answer' }).click();
      await visitor.waitForFunction(
        () => (window as unknown as { __firstFrameAt?: number }).__firstFrameAt !== undefined,
        undefined,
        { timeout: 30_000 },
      );
      const after = { V: await metrics(cdpV), S: await metrics(cdpS) };
      for (const side of ['V', 'S'] as const) {
        const d = (k: string) =>
          (((after[side][k] ?? 0) - (before[side][k] ?? 0)) * 1000).toFixed(0);
        console.log(
          `${side} main thread during set-up: task ${d('TaskDuration')} ms, script ${d('ScriptDuration')}, layout ${d('LayoutDuration')}, style ${d('RecalcStyleDuration')}, wall ${(((after[side].Timestamp ?? 0) - (before[side].Timestamp ?? 0)) * 1000).toFixed(0)}`,
        );
      }
      if (profile) {
        for (const [side, cdp] of [
          ['V', cdpV],
          ['S', cdpS],
        ] as const) {
          const { profile: p } = await cdp.send('Profiler.stop');
          const self = new Map<string, number>();
          const byId = new Map(p.nodes.map((n) => [n.id, n]));
          const dt = p.timeDeltas ?? [];
          (p.samples ?? []).forEach((id, i) => {
            const n = byId.get(id);
            if (!n) return;
            const f = n.callFrame;
            const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
            self.set(key, (self.get(key) ?? 0) + (dt[i + 1] ?? 0) / 1000);
          });
          console.log(`${side} top self time:`);
          for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
            console.log(`   ${v.toFixed(1).padStart(7)} ms  ${k}`);
        }
      }
      await visitor.waitForTimeout(200);
      const frameAt = await visitor.evaluate(() => {
        const w = window as unknown as { __firstFrameAt: number; __answerAt: number };
        return {
          frame: performance.timeOrigin + w.__firstFrameAt,
          ms: w.__firstFrameAt - w.__answerAt,
        };
      });
      print(
        `product round ${round + 1}: Answer → first frame ${frameAt.ms.toFixed(0)} ms`,
        [
          ...(await traceOf(visitor)).map(([t, s]) => [t, `V ${s}`] as const),
          ...(await traceOf(staff)).map(([t, s]) => [t, `S     ${s}`] as const),
          [frameAt.frame, 'V === first remote frame decoded'] as const,
        ],
        'V click Answer',
        'product',
      );
    } finally {
      await staffContext.close();
      await visitorContext.close();
      await api.dispose();
    }
  }
} finally {
  await server.stop();
  await browser.close();
}
const med = (values: number[]) => {
  const v = values.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (v.length === 0) return Number.NaN;
  return ((v[Math.floor((v.length - 1) / 2)] ?? 0) + (v[Math.floor(v.length / 2)] ?? 0)) / 2;
};
for (const [side, rows] of Object.entries(summaries)) {
  if (!rows.length) continue;
  console.log(`\n## ${side}: medians of ${rows.length} (ms from the start)`);
  for (const key of Object.keys(rows[0] ?? {})) {
    console.log(
      `${key.padEnd(22)} ${med(rows.map((r) => r[key] ?? Number.NaN))
        .toFixed(0)
        .padStart(6)}   [${rows.map((r) => (r[key] ?? Number.NaN).toFixed(0)).join(', ')}]`,
    );
  }
}
