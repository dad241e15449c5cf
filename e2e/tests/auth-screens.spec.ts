import { fileURLToPath } from 'node:url';
import { test } from '@playwright/test';
import { expect, openSignIn, signUpAndConfirm, uniqueEmail } from './auth-helpers.ts';
import { blockingViolations } from './axe.ts';

const dir = fileURLToPath(new URL('../screenshots/', import.meta.url));

test.describe('auth screens', () => {
  test.describe.configure({ timeout: 180_000 });

  test('the sign-in dialog has no serious or critical WCAG 2.1 AA violations', async ({ page }) => {
    const dialog = await openSignIn(page);
    await expect(dialog.getByRole('textbox', { name: 'Email' })).toBeFocused();
    expect(await blockingViolations(page, '[role="dialog"]')).toEqual([]);
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(dialog.getByRole('alert')).toBeVisible();
    expect(await blockingViolations(page, '[role="dialog"]')).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  test('the account page and the mailbox have no serious or critical violations', async ({
    page,
  }) => {
    await signUpAndConfirm(page, uniqueEmail('axe'));
    await page.goto('/admin/account');
    await expect(page.getByRole('heading', { level: 2, name: 'Profile' })).toBeVisible();
    expect(await blockingViolations(page)).toEqual([]);
    await page.goto('/dev/mailbox');
    await expect(page.getByRole('article').first()).toBeVisible();
    expect(await blockingViolations(page)).toEqual([]);
  });

  for (const width of [390, 1280]) {
    test(`screenshots at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      const email = uniqueEmail(`shots${width}`);

      const dialog = await openSignIn(page);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${dir}auth-sign-in-dialog-${width}.png` });
      await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(dialog.getByRole('alert')).toBeVisible();
      await page.screenshot({ path: `${dir}auth-sign-in-error-${width}.png` });

      await signUpAndConfirm(page, email);
      await page.goto('/admin/account');
      await expect(page.getByRole('heading', { level: 2, name: 'Profile' })).toBeVisible();
      await page.screenshot({ path: `${dir}auth-account-${width}.png`, fullPage: true });

      await page.goto('/dev/mailbox');
      await page.getByLabel('Show mail for').fill(email);
      await expect(page.getByRole('article').first()).toBeVisible();
      await page.screenshot({ path: `${dir}auth-dev-mailbox-${width}.png`, fullPage: true });
    });
  }
});
