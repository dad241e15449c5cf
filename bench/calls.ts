/**
 * Call benchmarks (issue 12), each product figure beside a floor measured in the same browser
 * in the same run, interleaved (floor, product, product, floor, ...), medians reported:
 *
 *   1. Call set-up: Answer → first remote video frame decoded at the answering side. Floor: a
 *      bare RTCPeerConnection pair doing the same steps, signalled through the test's own
 *      bridge. Target: product ≤ 2 × floor.
 *   2. File transfer: MB/s (10^6 bytes/s) of a 50 MiB file. Floor: a bare ordered data channel
 *      with flow control sending the same number of bytes. Target: product ≥ 80 % of floor.
 *
 *   npm run bench:calls                   builds the web app, then runs this in `unshare -n`
 *   (cd bench && ../scripts/netns.sh node calls.ts)
 *
 * Options: BENCH_CALL_ROUNDS (default 10), BENCH_FILE_MIB (default 50), BENCH_FILE_ROUNDS
 * (default 5), BENCH_CHAT_ENTRY (the chat module to bundle; default the product's
 * apps/web/src/features/meeting/chat/chatSession.ts). Markdown on stdout, JSON in bench/results/calls-<timestamp>.json.
 * Runs inside a network namespace with only loopback (scripts/netns.sh), like the e2e calls.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, request } from '@playwright/test';
import { useSession } from '../e2e/tests/api-helpers.ts';
import { calledVisitor } from '../e2e/tests/calls/call-helpers.ts';
import { subscribed } from '../e2e/tests/realtime-helpers.ts';
import {
  answerClickProbe,
  bareAnswer,
  bareCaller,
  bareDataChannel,
  blankPage,
  bridge,
  bundleChat,
  firstFrameProbe,
  launchChromium,
  productDataChannel,
} from './calls-browser.ts';
import { startServer } from './calls-server.ts';
import { intFromEnv, median } from './stats.ts';

const callRounds = intFromEnv('BENCH_CALL_ROUNDS', 10);
const fileMiB = intFromEnv('BENCH_FILE_MIB', 50);
const fileRounds = intFromEnv('BENCH_FILE_ROUNDS', 5);
const fileBytes = fileMiB * 1024 * 1024;
const repoRoot = resolve(import.meta.dirname, '..');
const chatEntry = resolve(
  repoRoot,
  process.env.BENCH_CHAT_ENTRY ?? 'apps/web/src/features/meeting/chat/chatSession.ts',
);

function log(message: string): void {
  console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

/** One bare call set-up: two fresh contexts (caller and callee), ring, answer, first frame. */
async function floorCallSetup(browser: Browser): Promise<number> {
  const callerContext = await browser.newContext();
  const calleeContext = await browser.newContext();
  try {
    const caller = await blankPage(callerContext);
    const callee = await blankPage(calleeContext);
    await callee.evaluate(firstFrameProbe);
    await bridge(caller, callee);
    await bareCaller(caller);
    // Ringing: the offer and the caller's candidates have arrived before Answer.
    await callee.waitForFunction(() => {
      const inbox = (window as unknown as { __inbox?: Array<{ type: string }> }).__inbox ?? [];
      return inbox.some((m) => m.type === 'offer') && inbox.some((m) => m.type === 'candidate');
    });
    await callee.waitForTimeout(300);
    return await bareAnswer(callee);
  } finally {
    await callerContext.close();
    await calleeContext.close();
  }
}

async function floorFileTransfer(browser: Browser): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await blankPage(context);
    const { ms, intact } = await bareDataChannel(page, fileBytes);
    if (!intact) throw new Error('the bare data channel delivered different bytes');
    return fileBytes / 1e6 / (ms / 1000);
  } finally {
    await context.close();
  }
}

async function productFileTransfer(browser: Browser, bundle: string): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await blankPage(context);
    const result = await productDataChannel(page, bundle, fileBytes);
    if (!result.intact) {
      throw new Error(
        `the product's chat did not deliver the file intact: ${JSON.stringify(result)}`,
      );
    }
    return fileBytes / 1e6 / (result.ms / 1000);
  } finally {
    await context.close();
  }
}

/**
 * One product call set-up: a fresh clinic, session and called visitor (through the API);
 * the visitor on My sessions, staff on the live console pressing "Video call"; once the
 * visitor's Incoming call dialog has rung, Answer, then the first remote frame decoded.
 */
async function productCallSetup(browser: Browser, baseURL: string): Promise<number> {
  const api = await request.newContext({ baseURL });
  const staffContext = await browser.newContext({ baseURL });
  const visitorContext = await browser.newContext({ baseURL });
  try {
    const world = await calledVisitor(api, 'B');
    const visitor = await visitorContext.newPage();
    await visitor.addInitScript(firstFrameProbe);
    await visitor.addInitScript(answerClickProbe);
    await useSession(visitor, world.visitor);
    const listening = subscribed(visitor, '/topic/meeting/');
    await visitor.goto('/admin/my-sessions');
    await listening;
    const staff = await staffContext.newPage();
    await useSession(staff, world.staff);
    await staff.goto(`/admin/live-sessions/all/${world.today}/${world.sessionId}`);
    await staff.getByRole('button', { name: 'Video call' }).click();
    const dialog = visitor.getByRole('dialog', { name: 'Incoming call' });
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    await visitor.waitForTimeout(300);
    await dialog.getByRole('button', { name: 'Answer' }).click();
    await visitor.waitForFunction(
      () => (window as unknown as { __firstFrameAt?: number }).__firstFrameAt !== undefined,
      undefined,
      { timeout: 30_000 },
    );
    return await visitor.evaluate(() => {
      const w = window as unknown as { __firstFrameAt: number; __answerAt: number };
      return w.__firstFrameAt - w.__answerAt;
    });
  } finally {
    await staffContext.close();
    await visitorContext.close();
    await api.dispose();
  }
}

type Series = { floor: number[]; product: number[] };

/** Alternates which side goes first each round (ABBA), so neither always runs warm. */
async function interleave(
  rounds: number,
  floor: () => Promise<number>,
  product: (() => Promise<number>) | undefined,
  label: string,
): Promise<Series> {
  const series: Series = { floor: [], product: [] };
  for (let round = 0; round < rounds; round++) {
    const order =
      round % 2 === 0 ? (['floor', 'product'] as const) : (['product', 'floor'] as const);
    for (const side of order) {
      if (side === 'product' && !product) continue;
      const value = await (side === 'floor' ? floor() : (product as () => Promise<number>)());
      series[side].push(value);
      log(`${label} round ${round + 1}/${rounds} ${side}: ${value.toFixed(1)}`);
    }
  }
  return series;
}

const fmt = (value: number, digits = 0) =>
  Number.isNaN(value)
    ? 'n/a'
    : value.toLocaleString('en-GB', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });

const browser = await launchChromium();
try {
  const startedAt = new Date().toISOString();
  const load = loadavg();
  log(`call set-up: ${callRounds} rounds; file transfer: ${fileRounds} rounds of ${fileMiB} MiB`);
  const webBuilt = existsSync(join(repoRoot, 'apps/web/dist/index.html'));
  if (!webBuilt)
    log('apps/web/dist is missing (npm run build): the product call set-up is not measured');
  const server = webBuilt ? await startServer(3700) : undefined;
  let setup: Series;
  try {
    setup = await interleave(
      callRounds,
      () => floorCallSetup(browser),
      server ? () => productCallSetup(browser, server.url) : undefined,
      'set-up ms',
    );
  } finally {
    await server?.stop();
  }
  const chatBundle = existsSync(chatEntry) ? await bundleChat(chatEntry) : undefined;
  if (!chatBundle) log(`no ${chatEntry}: the product side of file transfer is not measured`);
  const transfer = await interleave(
    fileRounds,
    () => floorFileTransfer(browser),
    chatBundle ? () => productFileTransfer(browser, chatBundle) : undefined,
    'transfer MB/s',
  );

  const setupFloor = median(setup.floor);
  const setupProduct = median(setup.product);
  const transferFloor = median(transfer.floor);
  const transferProduct = median(transfer.product);
  const lines = [
    `## Call benchmarks, ${startedAt}`,
    '',
    `${browser.version()} (Debian), ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average at start ${load.map((v) => v.toFixed(2)).join(', ')}; inside \`unshare -n\` (loopback only).`,
    '',
    '| Measure | Floor (median) | Product (median) | Ratio | Target |',
    '|---|--:|--:|--:|---|',
    `| Call set-up, Answer → first remote frame decoded (${callRounds} rounds) | ${fmt(setupFloor)} ms | ${fmt(setupProduct)} ms | ${fmt(setupProduct / setupFloor, 2)} × | ≤ 2 × floor |`,
    `| File transfer, ${fileMiB} MiB (${fileRounds} rounds) | ${fmt(transferFloor, 1)} MB/s | ${fmt(transferProduct, 1)} MB/s | ${fmt((100 * transferProduct) / transferFloor)} % | ≥ 80 % of floor |`,
    '',
    `Runs: set-up floor ${setup.floor.map((v) => fmt(v)).join(', ')} ms; product ${setup.product.map((v) => fmt(v)).join(', ') || 'not run'}.`,
    `Transfer floor ${transfer.floor.map((v) => fmt(v, 1)).join(', ')} MB/s; product ${transfer.product.map((v) => fmt(v, 1)).join(', ') || 'not run'}.`,
  ];
  console.log(lines.join('\n'));
  const dir = join(import.meta.dirname, 'results');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `calls-${startedAt.replaceAll(':', '-').replace(/\.\d+Z$/, 'Z')}.json`);
  await writeFile(
    file,
    `${JSON.stringify({ startedAt, browser: browser.version(), loadavg: load, setup, transfer, fileMiB }, null, 2)}\n`,
  );
  log(`results written to ${file}`);
} finally {
  await browser.close();
}
