import { expect, test } from '@playwright/test';
import { api, createQueue, openSessionToday, signUpViaApi } from './api-helpers.ts';
import { uniqueEmail } from './auth-helpers.ts';
import { LIVE_WITHIN_MS, subscribed, withoutPollingFallback } from './realtime-helpers.ts';

const PASSWORD = 'Board-entry-2026!';

/**
 * The app's entry script: the last module script an app page names (before it, what it
 * shares); `/services`, as `/` has a light start of its own (public-entry.spec.ts).
 */
function appEntryOf(html: string): string | undefined {
  return [...html.matchAll(/<script type="module"[^>]* src="([^"]+\.js)"/g)].at(-1)?.[1];
}

test.describe('the wall-screen boards’ own page', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a board comes without the app’s start, in its own language, and goes live over STOMP', async ({
    browser,
    request,
  }) => {
    const staff = await signUpViaApi(request, uniqueEmail('boardentry'), PASSWORD);
    const company = await api<{ id: string }>(request, staff, 'POST', '/company', {
      name: 'Light Board Clinic',
      timezone: 'UTC',
    });
    const queue = await createQueue(request, staff, {
      companyId: company.id,
      name: 'Walk-ins',
      tokenPrefix: 'LB',
      mode: 'walk_in',
    });
    const { sessionId } = await openSessionToday(request, staff, queue.id);
    for (const visitorName of ['Ada', 'Ben']) {
      await api(request, staff, 'POST', '/queues/sessions/tokens', { sessionId, visitorName });
    }
    const appEntry = appEntryOf(await (await request.get('/services')).text());
    expect(appEntry).toBeTruthy();

    const page = await (await browser.newContext()).newPage();
    await withoutPollingFallback(page);
    const scripts: string[] = [];
    page.on('request', (sent) => {
      if (sent.resourceType() === 'script') scripts.push(new URL(sent.url()).pathname);
    });
    const listens = subscribed(page, `/topic/session/${sessionId}`);
    await page.goto(`/display/${sessionId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Now serving' })).toBeVisible();
    await expect(page.getByLabel('Nobody called yet')).toBeVisible();
    await expect(page).toHaveTitle(/Now serving/);
    await listens;
    // Its own entry, not the app's (the router, i18next, the shell).
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts).not.toContain(appEntry);

    // Calls reach it over STOMP (no polling), in order, the first before the events' schema
    // had been loaded.
    const live = { timeout: LIVE_WITHIN_MS };
    const next = () => api(request, staff, 'POST', '/queues/sessions/next-token', { sessionId });
    await next();
    await expect(page.getByTestId('now-serving')).toHaveText('LB-001', live);
    await next();
    await expect(page.getByTestId('now-serving')).toHaveText('LB-002', live);
    await expect(page.getByRole('table').getByRole('row').nth(1)).toContainText('LB-001');

    // The branch board, from the same entry, in the language its address names.
    const branch = await (await browser.newContext()).newPage();
    await branch.goto(`/display/queue/${queue.id}?lang=ar`);
    await expect(branch.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(branch.getByTestId('counter-call')).toContainText('LB-002');
  });
});

test('a board whose texts could not be fetched tries again by itself', async ({ page }) => {
  const path = '/display/00000000-0000-4000-8000-000000000000';
  const html = await (await page.request.get(path)).text();
  const entry = /<script type="module"[^>]* src="([^"]+)"/.exec(html)?.[1];
  expect(entry).toMatch(/\/assets\/display-/);
  // The first request for the board's texts (a chunk of their own) fails: a flaky network.
  let refused = false;
  await page.route(/\/assets\/display-[^/]*\.js$/, async (route) => {
    if (!refused && new URL(route.request().url()).pathname !== entry) {
      refused = true;
      await route.abort();
    } else {
      await route.continue();
    }
  });
  await page.goto(path);
  await expect.poll(() => refused).toBe(true);
  await expect(page.getByRole('heading', { level: 1, name: 'Now serving' })).toBeVisible({
    timeout: 15_000,
  });
});
