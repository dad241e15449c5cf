/**
 * Initial JavaScript of the web app's pages (issue 15), beside the floor of a minimal Vite +
 * React page built and served the same way in the same run (bench/web-sites.ts).
 *
 * Each load is a fresh browser context (empty cache) in Debian's Chromium at 390×844; every
 * script the page requests until its heading shows and then 500 ms without network activity is
 * counted: its gzipped size (the body gzipped at level 9 here, as Vite reports sizes: the
 * figure of the goal), and the bytes that actually crossed the wire (Brotli from our server).
 * Stylesheets likewise. The scripts index.html names (the entry and its modulepreloads: the
 * issue's "up front") are shown apart. Pages load interleaved (floor, product pages, floor, ...), repeated;
 * medians reported.
 *
 *   npm run bench:web-weight         builds the web app, then (cd bench && ../scripts/netns.sh node web-weight.ts)
 *
 * Options: BENCH_WEB_ROUNDS (default 3). Markdown on stdout, JSON in
 * bench/results/web-weight-<timestamp>.json.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium } from '@playwright/test';
import { chromiumPath, headlessFlags } from '../e2e/chromium.ts';
import { intFromEnv, median } from './stats.ts';
import { type Site, startFloor, startProduct } from './web-sites.ts';

const rounds = intFromEnv('BENCH_WEB_ROUNDS', 3);
/** Goal of issue 15 for `/`, `/join` and `/display`. */
const GOAL_GZ_BYTES = 120_000;

interface Load {
  scripts: number;
  scriptGz: number;
  /** The part index.html names (the entry script and its modulepreloads): the "up front". */
  entryGz: number;
  scriptWire: number;
  styleGz: number;
  files: string[];
}

/** The scripts a site's index.html names: its entry and the modulepreloads. */
async function entryScripts(origin: string): Promise<Set<string>> {
  const html = await (await fetch(`${origin}/`)).text();
  return new Set([...html.matchAll(/(?:src|href)="([^"]+\.js)"/g)].map((match) => match[1] ?? ''));
}

async function measure(browser: Browser, url: string, entry: Set<string>): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const pending: Promise<{
    type: string;
    gz: number;
    wire: number;
    file: string;
  }>[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      (async () => {
        const body = await response.body();
        const sizes = await response.request().sizes();
        const file = new URL(response.url()).pathname;
        return {
          type,
          gz: gzipSync(body, { level: 9 }).length,
          wire: sizes.responseBodySize,
          file,
        };
      })(),
    );
  });
  await page.goto(url, { waitUntil: 'load' });
  // The page's own chunk may be asked for only after a long evaluation of the entry: wait for
  // the page itself (every measured page has a heading), then for the network to rest.
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  const resources = await Promise.all(pending);
  await context.close();
  const scripts = resources.filter((resource) => resource.type === 'script');
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return {
    scripts: scripts.length,
    scriptGz: sum(scripts.map((script) => script.gz)),
    entryGz: sum(scripts.filter((script) => entry.has(script.file)).map((script) => script.gz)),
    scriptWire: sum(scripts.map((script) => script.wire)),
    styleGz: sum(resources.filter((r) => r.type === 'stylesheet').map((r) => r.gz)),
    files: resources.map((resource) => resource.file),
  };
}

const kB = (bytes: number) => (bytes / 1000).toFixed(1);

const floor = await startFloor();
let product: Site | undefined;
let browser: Browser | undefined;
try {
  product = await startProduct();
  browser = await chromium.launch({ executablePath: chromiumPath(), args: headlessFlags });
  // A board of a session that does not exist loads the same code as a live one (it subscribes).
  const floorEntry = await entryScripts(floor.url);
  const productEntry = await entryScripts(product.url);
  const targets = [
    { name: 'floor /', url: floor.url, goal: false, entry: floorEntry },
    { name: '/', url: product.url, goal: true, entry: productEntry },
    { name: '/pricing', url: `${product.url}/pricing`, goal: false, entry: productEntry },
    { name: '/join', url: `${product.url}/join`, goal: true, entry: productEntry },
    // A join link as a scanned poster opens it: the demo seed's general practice queue.
    {
      name: '/join?queue=',
      url: `${product.url}/join?queue=HVGP`,
      goal: false,
      entry: productEntry,
    },
    {
      name: '/display/:id',
      url: `${product.url}/display/${randomUUID()}`,
      goal: true,
      entry: productEntry,
    },
  ];
  const loads = new Map<string, Load[]>(targets.map((target) => [target.name, []]));
  const load = loadavg()[0] ?? Number.NaN;
  for (let round = 0; round < rounds; round++) {
    // Alternate the order, so neither side always loads first.
    const order = round % 2 ? [...targets].reverse() : targets;
    for (const target of order)
      loads.get(target.name)?.push(await measure(browser, target.url, target.entry));
  }
  const floorGz = median((loads.get('floor /') ?? []).map((l) => l.scriptGz));

  const rows = targets.map((target) => {
    const all = loads.get(target.name) ?? [];
    const gz = median(all.map((l) => l.scriptGz));
    return {
      page: target.name,
      scripts: median(all.map((l) => l.scripts)),
      scriptGz: gz,
      entryGz: median(all.map((l) => l.entryGz)),
      scriptWire: median(all.map((l) => l.scriptWire)),
      styleGz: median(all.map((l) => l.styleGz)),
      ratio: gz / floorGz,
      goal: target.goal ? (gz <= GOAL_GZ_BYTES ? 'met' : 'not met') : '',
      files: all[0]?.files ?? [],
    };
  });
  console.log(
    `\nInitial JavaScript, ${rounds} loads per page, medians (load average ${load.toFixed(1)})\n`,
  );
  console.log(
    '| Page | Scripts | JS gzip kB | of which entry | JS on the wire kB | CSS gzip kB | × floor | ≤ 120 kB |',
  );
  console.log('|---|--:|--:|--:|--:|--:|--:|---|');
  for (const row of rows) {
    console.log(
      `| ${row.page} | ${row.scripts} | ${kB(row.scriptGz)} | ${kB(row.entryGz)} | ${kB(row.scriptWire)} | ${kB(row.styleGz)} | ${row.ratio.toFixed(2)} | ${row.goal} |`,
    );
  }
  const dir = join(import.meta.dirname, 'results');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `web-weight-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(
    file,
    JSON.stringify({ rounds, loadAverage: load, rows, loads: [...loads] }, null, 2),
  );
  console.log(`\nJSON: ${file}`);
} finally {
  await browser?.close();
  await product?.stop();
  await floor.stop();
}
