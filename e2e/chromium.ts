/**
 * How the browser tests and the call benchmarks start Chromium on these machines: one place for
 * its path and flags (e2e/playwright.config.ts, bench/calls-browser.ts).
 */
import { execFileSync } from 'node:child_process';

// Debian's Chromium (`apt-get install chromium`): Playwright's own download is unavailable here.
export function chromiumPath(): string {
  try {
    const found = execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
    if (found) return found;
  } catch {
    // Not on PATH: fall back to Debian's location.
  }
  return '/usr/bin/chromium';
}

/** Headless Chromium as root on these machines (never pass --disable-features). */
export const headlessFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/**
 * Calls: a synthetic camera, microphone and screen without prompts, host candidates on
 * loopback (the run is inside a network namespace with only `lo`: scripts/netns.sh), and remote
 * media that plays without a click.
 */
export const callFlags = [
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--autoplay-policy=no-user-gesture-required',
];
