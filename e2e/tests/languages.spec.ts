import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { api, signUpViaApi, useSession } from './api-helpers.ts';
import { PASSWORD, uniqueEmail } from './auth-helpers.ts';
import { blockingViolations } from './axe.ts';

const screenshots = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** For a person to review: the first screen, and the whole page. */
async function pictures(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: `${screenshots}${name}.png` });
  await page.screenshot({ path: `${screenshots}${name}-full.png`, fullPage: true });
}

// Texts as the Arabic and French files write them (apps/web/src/locales/{ar,fr}).
const arabic = {
  homeHeading: 'دع الناس ينتظرون أينما شاؤوا، ويُخدمون في الوقت المحدد',
  joinHeading: 'الانضمام إلى طابور',
};

/** The page is laid out right to left: `<html lang dir>`, the logo at the header's right. */
async function expectRightToLeft(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const header = page.locator('header').first();
  const logo = await header.getByRole('link', { name: 'الصفحة الرئيسية لـ UpNext' }).boundingBox();
  // The header's last control (sign-in, sign-out or the menu) ends up left of the logo.
  const last = await header.getByRole('button').last().boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(logo && last).toBeTruthy();
  expect((logo?.x ?? 0) + (logo?.width ?? 0)).toBeGreaterThan(width * 0.6);
  expect((last?.x ?? width) + (last?.width ?? 0)).toBeLessThanOrEqual(logo?.x ?? 0);
  // Every control of the header is inside the window, and nothing scrolls sideways.
  for (const control of await header.getByRole('button').all()) {
    const box = await control.boundingBox();
    if (box) expect(box.x).toBeGreaterThanOrEqual(0);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width,
  );
}

test.describe('in Arabic (the browser asks for it)', () => {
  test.use({ locale: 'ar-EG' });

  for (const width of [390, 1280]) {
    test.describe(`at ${width} px`, () => {
      test.use({ viewport: { width, height: 900 } });

      test('the home page reads right to left and passes axe', async ({ page }) => {
        await page.goto('/');
        await expect(
          page.getByRole('heading', { level: 1, name: arabic.homeHeading }),
        ).toBeVisible();
        await expectRightToLeft(page);
        expect(await blockingViolations(page)).toEqual([]);
        await pictures(page, `ar-home-${width}`);
      });

      test('the join page reads right to left and passes axe', async ({ page }) => {
        await page.goto('/join');
        await expect(
          page.getByRole('heading', { level: 1, name: arabic.joinHeading }),
        ).toBeVisible();
        await expectRightToLeft(page);
        expect(await blockingViolations(page)).toEqual([]);
        await pictures(page, `ar-join-${width}`);
      });

      test('the admin area reads right to left', async ({ page, request }) => {
        const owner = await signUpViaApi(request, uniqueEmail('arabic'), PASSWORD);
        await api(request, owner, 'POST', '/company', {
          name: 'عيادة الميناء',
          timezone: 'Asia/Dubai',
        });
        await useSession(page, owner);
        await page.goto('/admin/company');
        await expect(page.getByRole('heading', { level: 1, name: 'الشركة' })).toBeVisible();
        await expectRightToLeft(page);
        await pictures(page, `ar-admin-${width}`);
        // On a phone the language is chosen in the menu, with the sections.
        if (width < 768) await page.getByRole('button', { name: 'فتح قائمة الإدارة' }).click();
        await expect(page.getByRole('combobox', { name: 'اللغة' })).toBeVisible();
      });
    });
  }

  test('the board speaks the language its address names', async ({ page }) => {
    // A wall screen has no one to pick a language: `?lang=` chooses it.
    await page.goto('/display/00000000-0000-4000-8000-000000000000?lang=fr');
    await expect(page.getByRole('heading', { level: 1, name: 'Appel en cours' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  });
});

test('the language switcher changes the page at once and is remembered', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.getByRole('combobox', { name: 'Language' }).selectOption('fr');
  await expect(
    page.getByRole('heading', {
      level: 1,
      name: 'Des formules simples qui grandissent avec vos files',
    }),
  ).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await page.reload();
  await expect(page.getByRole('link', { name: 'Tarifs' }).first()).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Langue' })).toHaveValue('fr');
  // Prices and dates are written the French way.
  await expect(page.getByText(/\d+,\d{2}\s?€|\d+\s?€/).first()).toBeVisible();
});
