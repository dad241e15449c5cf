import { randomUUID } from 'node:crypto';
import { expect as baseExpect, type Page } from '@playwright/test';
import { TOTP } from 'otpauth';

/** The machine running these is shared and loaded: give each expectation room. */
export const expect = baseExpect.configure({ timeout: 20_000 });

export const PASSWORD = 'correct horse battery';

export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

/** The sign-in dialog, opened the way a guarded page sends visitors (works at any width). */
export async function openSignIn(page: Page, redirect = '/admin') {
  await page.goto(`/?redirect=${encodeURIComponent(redirect)}`);
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
  // Unnamed: the dialog's title follows its step (Create your account, Enter your code, ...).
  return page.getByRole('dialog');
}

/** Opens the newest mail with `subject` for `to` in the developer mailbox page and follows its link. */
export async function followMailLink(page: Page, to: string, subject: string) {
  await page.goto('/dev/mailbox');
  await page.getByLabel('Show mail for').fill(to);
  const mail = page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: subject }) });
  await expect(mail.first()).toBeVisible({ timeout: 15_000 });
  await mail.first().getByRole('link', { name: 'Open link' }).click();
}

export async function signUpAndConfirm(page: Page, email: string, password = PASSWORD) {
  const dialog = await openSignIn(page);
  await dialog.getByRole('button', { name: 'No account yet? Create one' }).click();
  await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Create account' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `We sent a confirmation to ${email}` }),
  ).toBeVisible();

  await followMailLink(page, email, 'Confirm your UpNext account');
  // /auth/v1/verify -> /login?code=... (PKCE) -> the redirect path.
  await expect(page).toHaveURL(/\/admin\/my-sessions$/, { timeout: 20_000 });
}

export async function signInWithPassword(page: Page, email: string, password = PASSWORD) {
  const dialog = await openSignIn(page);
  await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  return dialog;
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true }).first()).toBeAttached();
}

export function totpFor(secret: string): TOTP {
  return new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' });
}

/**
 * A code that stays valid for the next few seconds and belongs to a later time step than
 * `after` (the server refuses a step at or before the last one it accepted: no replays).
 * Returns the code and its step.
 */
export async function freshTotpCode(
  totp: TOTP,
  after = -1,
): Promise<{ code: string; step: number }> {
  for (;;) {
    const now = Date.now() / 1000;
    const step = Math.floor(now / 30);
    const remaining = 30 - (now % 30);
    if (step > after && remaining >= 4) return { code: totp.generate(), step };
    await new Promise((resolve) => setTimeout(resolve, remaining * 1000 + 200));
  }
}
