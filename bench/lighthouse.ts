/**
 * Lighthouse on the public pages (issue 15): performance and accessibility scores, LCP and
 * the JavaScript transferred, for `/`, `/pricing` and `/join` of the real server (and a join
 * link, `/join?queue=`, measured beside them) and for the floor, a minimal Vite + React page
 * built and served the same way in the same run (bench/web-sites.ts). Goal: performance ≥ 95
 * and accessibility 100 on the three pages.
 *
 * Lighthouse's default (mobile) preset: a Moto G-class screen, simulated slow 4G and a 4×
 * slower CPU, in Debian's Chromium started by chrome-launcher with a fresh profile per run.
 * Runs interleave the floor and the pages (the order flips each round), repeated; medians.
 *
 *   npm run bench:lighthouse        builds the web app, then (cd bench && ../scripts/netns.sh node lighthouse.ts)
 *
 * Options: BENCH_LIGHTHOUSE_ROUNDS (default 3). Markdown on stdout, JSON in
 * bench/results/lighthouse-<timestamp>.json.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumPath, headlessFlags } from '../e2e/chromium.ts';
import { intFromEnv, median } from './stats.ts';
import { type Site, startFloor, startProduct } from './web-sites.ts';

const rounds = intFromEnv('BENCH_LIGHTHOUSE_ROUNDS', 3);

interface Run {
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  scriptBytes: number;
  totalBytes: number;
  /** Accessibility audits that failed, so they can be fixed. */
  failing: string[];
}

/** Lighthouse sometimes fails to record a trace (NO_NAVSTART, "run again"): up to 3 tries. */
async function run(url: string): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(url);
    } catch (error) {
      if (attempt === 3) throw error;
      console.error(`[lighthouse] ${url}: ${String(error)}; again`);
    }
  }
}

async function runOnce(url: string): Promise<Run> {
  const chrome = await launch({ chromePath: chromiumPath(), chromeFlags: headlessFlags });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { categories, audits, runtimeError } = result.lhr;
    if (runtimeError) throw new Error(`${url}: ${runtimeError.code} ${runtimeError.message}`);
    const numeric = (id: string) => audits[id]?.numericValue ?? Number.NaN;
    const summary = (
      audits['resource-summary']?.details as {
        items?: { resourceType: string; transferSize: number }[];
      }
    )?.items;
    const transfer = (type: string) =>
      summary?.find((item) => item.resourceType === type)?.transferSize ?? Number.NaN;
    const accessibility = categories.accessibility;
    return {
      performance: Math.round((categories.performance?.score ?? Number.NaN) * 100),
      accessibility: Math.round((accessibility?.score ?? Number.NaN) * 100),
      fcpMs: numeric('first-contentful-paint'),
      lcpMs: numeric('largest-contentful-paint'),
      tbtMs: numeric('total-blocking-time'),
      cls: numeric('cumulative-layout-shift'),
      speedIndexMs: numeric('speed-index'),
      scriptBytes: transfer('script'),
      totalBytes: transfer('total'),
      failing: (accessibility?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && audits[ref.id]?.score === 0)
        .map((ref) => ref.id),
    };
  } finally {
    chrome.kill();
  }
}

const floor = await startFloor();
let product: Site | undefined;
try {
  product = await startProduct();
  const targets = [
    { name: 'floor (Vite + React)', url: `${floor.url}/` },
    { name: '/', url: `${product.url}/` },
    { name: '/pricing', url: `${product.url}/pricing` },
    { name: '/join', url: `${product.url}/join` },
    // Not a goal, measured beside them: a join link as a scanned poster opens it (the demo
    // seed's general practice queue), the visitor's first page in the light start.
    { name: '/join?queue=', url: `${product.url}/join?queue=HVGP` },
  ];
  const runs = new Map<string, Run[]>(targets.map((target) => [target.name, []]));
  const loads: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...targets].reverse() : targets;
    for (const target of order) {
      loads.push(loadavg()[0] ?? Number.NaN);
      const result = await run(target.url);
      console.error(`[lighthouse] round ${round + 1} ${target.name}: ${JSON.stringify(result)}`);
      runs.get(target.name)?.push(result);
    }
  }

  const ms = (value: number) => Math.round(value).toLocaleString('en');
  const kB = (bytes: number) => (bytes / 1000).toFixed(1);
  const rows = targets.map((target) => {
    const all = runs.get(target.name) ?? [];
    const of = (pick: (run: Run) => number) => median(all.map(pick));
    return {
      page: target.name,
      performance: of((r) => r.performance),
      performanceRuns: all.map((r) => r.performance),
      accessibility: of((r) => r.accessibility),
      fcpMs: of((r) => r.fcpMs),
      lcpMs: of((r) => r.lcpMs),
      tbtMs: of((r) => r.tbtMs),
      cls: of((r) => r.cls),
      speedIndexMs: of((r) => r.speedIndexMs),
      scriptBytes: of((r) => r.scriptBytes),
      totalBytes: of((r) => r.totalBytes),
      failing: [...new Set(all.flatMap((r) => r.failing))],
    };
  });
  console.log(
    `\nLighthouse ${rounds}× per page (mobile preset), medians; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}\n`,
  );
  console.log(
    '| Page | Performance (runs) | Accessibility | FCP ms | LCP ms | TBT ms | CLS | Speed Index ms | JS kB (wire) | Total kB |',
  );
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const row of rows) {
    console.log(
      `| ${row.page} | ${row.performance} (${row.performanceRuns.join(', ')}) | ${row.accessibility} | ${ms(row.fcpMs)} | ${ms(row.lcpMs)} | ${ms(row.tbtMs)} | ${row.cls.toFixed(3)} | ${ms(row.speedIndexMs)} | ${kB(row.scriptBytes)} | ${kB(row.totalBytes)} |`,
    );
  }
  for (const row of rows) {
    if (row.failing.length)
      console.log(`\n${row.page}: accessibility audits failing: ${row.failing.join(', ')}`);
  }
  const dir = join(import.meta.dirname, 'results');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `lighthouse-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, JSON.stringify({ rounds, loads, rows, runs: [...runs] }, null, 2));
  console.log(`\nJSON: ${file}`);
} finally {
  await product?.stop();
  await floor.stop();
}
