import { expect, test } from '@playwright/test';

test.describe('OAuth sign-in', () => {
  test('signs in through the local OpenID Connect provider and returns to the page asked for', async ({
    page,
  }) => {
    await page.goto('/admin/account');
    // Signed out: home, with the sign-in dialog open and the intended page remembered.
    await expect(page).toHaveURL(/\/\?redirect=%2Fadmin%2Faccount$/);
    const dialog = page.getByRole('dialog', { name: 'Sign in' });
    await dialog.getByRole('button', { name: 'Continue with Harbour SSO' }).click();

    // The provider signs its account in and sends the browser back through /auth/v1/callback.
    await expect(page).toHaveURL(/\/admin\/account$/, { timeout: 30_000 });
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    await expect(page.getByText('sso.visitor@example.test').first()).toBeVisible();
  });
});
