import type { Page } from '@playwright/test';

/** What a change pushed over STOMP may take to show (issue 11: "within 2 s"). */
export const LIVE_WITHIN_MS = 2_000;

/**
 * Realtime only: the web app's polling fallback (lib/realtime-cache.ts) is stretched far past
 * every wait of the test, so a change shows only if its event arrived.
 */
export async function withoutPollingFallback(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.localStorage.setItem('upnext.realtime.fallbackPollMs', String(60 * 60_000));
  });
}

/**
 * Resolves once the page has sent a STOMP SUBSCRIBE to a destination starting with `prefix`.
 * Call before the page opens its connection.
 */
export function subscribed(page: Page, prefix: string): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      socket.on('framesent', ({ payload }) => {
        const text = typeof payload === 'string' ? payload : payload.toString('utf8');
        if (!text.startsWith('SUBSCRIBE')) return;
        const destination = /\ndestination:([^\n]*)/.exec(text)?.[1] ?? '';
        if (destination.startsWith(prefix)) resolve();
      });
    });
  });
}
