import { expect, test } from '@playwright/test';
import { blockingViolations } from './axe.ts';
import { otherPublicPages, publicPages } from './pages.ts';

test.describe('accessibility', () => {
  for (const { path } of [...publicPages, ...otherPublicPages, { path: '/no-such-page' }]) {
    test(`${path} has no serious or critical WCAG 2.1 AA violations`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await blockingViolations(page)).toEqual([]);
    });
  }

  test('the skip link is the first Tab stop and moves focus to main', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
  });
});
