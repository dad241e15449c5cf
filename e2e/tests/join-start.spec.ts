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
