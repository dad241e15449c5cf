import { expect, test } from '@playwright/test';

test('/join hydrates its code form alone, and loads the flow once a code is given', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/join');
  await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered');
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  // Neither the steps after the code nor the contract's schemas (zod).
  expect(scripts.filter((path) => /\/(JoinFlow|endpoint)-/.test(path))).toEqual([]);

  await page.getByRole('textbox', { name: 'Join code' }).fill('NOSUCHQ1');
  await page.getByRole('button', { name: 'Find the queue' }).click();
  await expect(page.getByText('No queue has this join code.')).toBeVisible();
  await expect(page).toHaveURL(/\?queue=NOSUCHQ1$/);
  expect(scripts.filter((path) => /\/JoinFlow-/.test(path))).toHaveLength(1);
});

test('a join link holds its layout while the queue arrives: nothing on screen shifts', async ({
  page,
}) => {
  await page.addInitScript(() => {
    const shifts: number[] = [];
    Object.assign(window, { layoutShifts: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as { value?: number }).value ?? 0);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  // The queue's answer comes well after the first paint, as on a phone's slow network.
  await page.route('**/api/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await page.goto('/join?queue=NOSUCHQ1');
  await expect(page.getByText('No queue has this join code.')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeAttached();
  expect(
    await page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts),
  ).toEqual([]);
});
