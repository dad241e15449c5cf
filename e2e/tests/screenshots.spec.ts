import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { otherPublicPages, publicPages } from './pages.ts';

const dir = fileURLToPath(new URL('../screenshots/', import.meta.url));

// Not assertions: full-page pictures of each public page for a person to review.
for (const width of [390, 1280]) {
  test.describe(`screenshots at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });
    for (const { name, path } of [
      ...publicPages,
      ...otherPublicPages,
      { name: 'not-found', path: '/no-such-page' },
    ]) {
      test(name, async ({ page }) => {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: `${dir}${name}-${width}.png`, fullPage: true });
      });
    }
  });
}
