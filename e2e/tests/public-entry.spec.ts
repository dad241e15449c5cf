import { expect, type Page, test } from '@playwright/test';
import { api, createQueue, openSessionToday, signUpViaApi, useSession } from './api-helpers.ts';
import { uniqueEmail } from './auth-helpers.ts';
import { calledVisitor } from './calls/call-helpers.ts';
import { subscribed } from './realtime-helpers.ts';

/**
 * What each heavy part of the app's start leaves in its code, minified or not: react-router's
 * hooks, its data router, i18next, and TanStack Query's React bindings.
 */
const HEAVY = {
  'react-router': 'useNavigate() may be used only',
  'the data router': 'hydrationData',
  i18next: 'i18next is already initialized',
  'TanStack Query': 'No QueryClient set',
} as const;

/**
 * The scripts an app page's HTML names: the app's start (its entry and what it preloads), but
 * the bundler's runtime, the same small file in both builds.
 */
async function appStart(page: Page): Promise<string[]> {
  const html = await (await page.request.get('/services')).text();
  return [...html.matchAll(/<(?:script|link)[^>]* (?:src|href)="(\/assets\/[^"]+\.js)"/g)]
    .map((match) => match[1] ?? '')
    .filter((url) => !url.includes('/rolldown-runtime-'));
}

/** Every script the page loads until it is live and the network rests, with its code. */
async function scriptsOf(page: Page, path: string) {
  const scripts = new Map<string, Promise<string>>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') {
      scripts.set(new URL(response.url()).pathname, response.text());
    }
  });
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered');
  await page.waitForLoadState('networkidle');
  return new Map(
    await Promise.all([...scripts].map(async ([url, text]) => [url, await text] as const)),
  );
}

/** The heavy parts (`HEAVY`) whose code is in `scripts`. */
function heavyIn(scripts: Map<string, string>): string[] {
  return Object.entries(HEAVY)
    .filter(([, mark]) => [...scripts.values()].some((code) => code.includes(mark)))
    .map(([part]) => part);
}

test.describe('the public pages’ light start', () => {
  test('an app page loads the heavy parts (what the checks below look for is there)', async ({
    page,
  }) => {
    expect(heavyIn(await scriptsOf(page, '/services'))).toEqual(Object.keys(HEAVY));
  });

  for (const path of ['/', '/pricing', '/join']) {
    test(`${path} loads no script of the app's start, nor the router, i18next or the query cache`, async ({
      page,
    }) => {
      const app = await appStart(page);
      expect(app.length).toBeGreaterThan(0);
      const scripts = await scriptsOf(page, path);
      expect(scripts.size).toBeGreaterThan(0);
      expect([...scripts.keys()].filter((url) => app.includes(url))).toEqual([]);
      expect(heavyIn(scripts)).toEqual([]);
    });
  }

  test('a join link (/join?queue=, what a scanned poster opens) shows the queue in the light start, with the query cache but none of the rest', async ({
    page,
    request,
  }) => {
    const staff = await signUpViaApi(request, uniqueEmail('light-join'), 'Light-join-2026!');
    const company = await api<{ id: string }>(request, staff, 'POST', '/company', {
      name: 'Light Join Clinic',
      timezone: 'UTC',
    });
    const queue = await createQueue(request, staff, {
      companyId: company.id,
      name: 'Scanned queue',
      tokenPrefix: 'S',
      mode: 'walk_in',
    });
    await openSessionToday(request, staff, queue.id);
    const app = await appStart(page);
    const scripts = await scriptsOf(page, `/join?queue=${queue.joinCode}`);
    await expect(page.getByText('Scanned queue')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Take a token/ })).toBeVisible();
    expect([...scripts.keys()].filter((url) => app.includes(url))).toEqual([]);
    expect(heavyIn(scripts)).toEqual(['TanStack Query']);
  });

  test('a link out of a light page loads the app, and Back returns to the light page', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/pricing');
    await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Services' })
      .click();
    await expect(page).toHaveURL('/services');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The app routes from here on: Pricing is a client-side navigation, in the app.
    await page.goBack();
    await expect(page).toHaveURL('/pricing');
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }),
    ).toHaveAttribute('aria-current', 'page');
  });

  test('a signed-in user on a light page sees Dashboard, and an incoming call rings there', async ({
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const world = await calledVisitor(request, 'L');
    const visitor = await (
      await browser.newContext({ viewport: { width: 1280, height: 800 } })
    ).newPage();
    await useSession(visitor, world.visitor);
    // The call host brings the realtime connection a light page does not have of itself.
    const listening = subscribed(visitor, '/topic/meeting/');
    await visitor.goto('/');
    await expect(
      visitor.getByRole('banner').getByRole('link', { name: 'Dashboard' }),
    ).toBeVisible();
    await listening;
    const staff = await (
      await browser.newContext({ viewport: { width: 1280, height: 800 } })
    ).newPage();
    await useSession(staff, world.staff);
    await staff.goto(`/admin/live-sessions/all/${world.today}/${world.sessionId}`);
    await staff.getByRole('button', { name: 'Video call' }).click();
    await expect(visitor.getByRole('dialog', { name: 'Incoming call' })).toBeVisible({
      timeout: 30_000,
    });
  });
});
