import { expect, type Page, test } from '@playwright/test';
import { signUpViaApi, useSession } from './api-helpers.ts';
import { PASSWORD, uniqueEmail } from './auth-helpers.ts';
import { publicPages } from './pages.ts';

const NOT_FOUND_PATH = '/no-such-page';

async function notFoundHeading(page: Page): Promise<string> {
  await page.goto(NOT_FOUND_PATH);
  return (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
}

test.describe('public pages', () => {
  for (const { path } of publicPages) {
    test(`${path} loads with its content inside the site shell`, async ({ page }) => {
      const notFound = await notFoundHeading(page);
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);

      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading).toBeVisible();
      await expect(heading).not.toHaveText(notFound);
      await expect(page).toHaveTitle(/UpNext/);
      // Real content, not a stub: the page says something beyond its heading.
      expect((await page.getByRole('main').innerText()).trim().length).toBeGreaterThan(200);

      await expect(page.getByRole('banner')).toBeVisible();
      await expect(page.getByRole('contentinfo')).toBeVisible();
    });
  }

  test('the password-reset paths show the home page', async ({ page }) => {
    await page.goto('/');
    const home = await page.getByRole('heading', { level: 1 }).textContent();
    for (const path of ['/updatepassword', '/update-password']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(home ?? '');
    }
  });

  test('an unknown path shows the not-found page with a 404 status', async ({ page }) => {
    const response = await page.goto(NOT_FOUND_PATH);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page).toHaveTitle('Page not found · UpNext');
    await expect(page.getByRole('banner')).toBeVisible();
  });

  test('a guarded page sends a signed-out visitor home with the intended path', async ({
    page,
  }) => {
    await page.goto('/admin/queues?x=1');
    await expect(page).toHaveURL('/?redirect=%2Fadmin%2Fqueues%3Fx%3D1');
    await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
  });

  test('the home page loads neither the admin area nor Sentry', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((path) => /AdminLayout|\/sentry-/.test(path))).toEqual([]);
  });

  test('the header navigation reaches each public page', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Pricing' }).click();
    await expect(page).toHaveURL('/pricing');
    await expect(nav.getByRole('link', { name: 'Pricing' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await nav.getByRole('link', { name: 'About us' }).click();
    await expect(page).toHaveURL('/aboutus');
  });

  test('on a phone the burger opens the menu drawer', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    await drawer.getByRole('link', { name: 'Services' }).click();
    await expect(page).toHaveURL('/services');
    await expect(drawer).toBeHidden();
  });

  test('Sign in opens the sign-in dialog', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Email' })).toBeFocused();
  });

  test('a signed-in visitor gets the page rendered afresh, not a mismatched hydration', async ({
    page,
    request,
  }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // The markup is a signed-out visitor's; this one's header shows their account.
    await useSession(page, await signUpViaApi(request, uniqueEmail('home'), PASSWORD));
    const response = await page.goto('/');
    expect(await response?.text()).toContain('<div id="root" data-prerendered="en">');
    await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered');
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sign in' })).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test('a code typed before the page is live is kept', async ({ page }) => {
    const releaseScripts = await holdScripts(page);
    await page.goto('/join', { waitUntil: 'commit' });
    await page.getByRole('textbox', { name: 'Join code' }).fill('HARBOUR');
    releaseScripts();
    await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered');
    await expect(page.getByRole('textbox', { name: 'Join code' })).toHaveValue('HARBOUR');
    await page.getByRole('button', { name: 'Find the queue' }).click();
    await expect(page).toHaveURL(/[?&]queue=HARBOUR/);
  });

  test('a language chosen before the page is live is kept', async ({ page }) => {
    const releaseScripts = await holdScripts(page);
    await page.goto('/pricing', { waitUntil: 'commit' });
    await page.getByRole('combobox', { name: 'Language' }).selectOption('fr');
    releaseScripts();
    await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByRole('link', { name: 'Tarifs' }).first()).toBeVisible();
  });

  for (const path of ['/', '/pricing', '/join']) {
    test(`${path} comes prerendered and is hydrated, not rendered again`, async ({ page }) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      // The heading the server's HTML holds, before any script of the page runs.
      await page.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => {
          (window as { served?: Element | null }).served = document.querySelector('h1');
        });
      });
      const response = await page.goto(path);
      expect(await response?.text()).toContain('<div id="root" data-prerendered="en">');
      // Live once hydrated; then the header's language switcher answers.
      await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered');
      const english = await page.getByRole('heading', { level: 1 }).innerText();
      await page.getByRole('combobox', { name: 'Language' }).selectOption('fr');
      await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(english);
      const sameHeading = await page.evaluate(
        () =>
          (window as { served?: Element | null }).served === document.querySelector('h1') &&
          document.querySelector('h1') !== null,
      );
      expect(sameHeading).toBe(true);
      expect(errors).toEqual([]);
    });
  }
});

/**
 * Holds the page's scripts back until the returned function is called: until then the page is
 * only its server markup. (Go to it with `waitUntil: 'commit'`: 'domcontentloaded' waits for
 * module scripts.)
 */
async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
