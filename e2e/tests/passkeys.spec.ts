import { fileURLToPath } from 'node:url';
import { type CDPSession, type Page, test } from '@playwright/test';
import {
  expect,
  openSignIn,
  signInWithPassword,
  signOut,
  signUpAndConfirm,
  uniqueEmail,
} from './auth-helpers.ts';
import { blockingViolations } from './axe.ts';

const screenshots = fileURLToPath(new URL('../screenshots/', import.meta.url));

/**
 * Chromium's virtual authenticators (DevTools protocol), answering every ceremony without a
 * prompt, so the real navigator.credentials calls of auth-js run against the real server: a
 * platform authenticator with resident keys (passkeys), or a USB security key (auth-js asks
 * for a cross-platform authenticator for a WebAuthn factor).
 */
async function virtualAuthenticator(
  page: Page,
  transport: 'internal' | 'usb' = 'internal',
): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport,
      hasResidentKey: transport === 'internal',
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, id: authenticatorId };
}

const section = (page: Page, title: string) =>
  page.locator('section').filter({ has: page.getByRole('heading', { level: 2, name: title }) });

test.describe('passkeys and security keys', () => {
  test.describe.configure({ timeout: 180_000 });

  test('add a passkey on the account page, sign in with it, a security key as MFA, remove', async ({
    page,
  }) => {
    const authenticator = await virtualAuthenticator(page);
    const email = uniqueEmail('passkey');
    await signUpAndConfirm(page, email);

    await page.goto('/admin/account');
    const passkeys = section(page, 'Passkeys');
    await expect(passkeys.getByText('No passkey yet.')).toBeVisible();
    await passkeys.getByLabel('Passkey name').fill('Work laptop');
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(passkeys.getByText('Work laptop')).toBeVisible();
    await expect(passkeys.getByText(/Last used never/)).toBeVisible();
    const { credentials } = await authenticator.cdp.send('WebAuthn.getCredentials', {
      authenticatorId: authenticator.id,
    });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);
    expect(credentials[0]?.rpId).toBe('localhost');

    await passkeys.getByRole('button', { name: 'Rename Work laptop' }).click();
    await passkeys.getByLabel('Passkey name').first().fill('Home laptop');
    await passkeys.getByRole('button', { name: 'Save' }).click();
    await expect(passkeys.getByText('Home laptop')).toBeVisible();

    expect(await blockingViolations(page)).toEqual([]);
    await passkeys.screenshot({ path: `${screenshots}account-passkeys-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await passkeys.screenshot({ path: `${screenshots}account-passkeys-390.png` });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Signed out, the passkey alone signs in (no email, no password).
    await signOut(page);
    const dialog = await openSignIn(page, '/admin/account');
    await dialog.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page).toHaveURL(/\/admin\/account$/);
    await expect(passkeys.getByText('Home laptop')).toBeVisible();
    await expect(passkeys.getByText(/Last used never/)).toHaveCount(0);

    // A security key as the second factor.
    const securityKey = await virtualAuthenticator(page, 'usb');
    const mfa = section(page, 'Two-factor authentication');
    await mfa.getByRole('button', { name: 'Add a security key' }).click();
    await expect(mfa.getByText('Active')).toBeVisible();
    await expect(mfa.getByText('Security key', { exact: true }).first()).toBeVisible();

    await signOut(page);
    await signInWithPassword(page, email);
    const step = page.getByRole('dialog', { name: 'Two-factor authentication' });
    await step.getByRole('button', { name: 'Use your security key' }).click();
    await expect(page).toHaveURL(/\/admin\/my-sessions$/);
    const { credentials: keys } = await securityKey.cdp.send('WebAuthn.getCredentials', {
      authenticatorId: securityKey.id,
    });
    expect(keys).toHaveLength(1);
    expect(keys[0]?.signCount).toBeGreaterThan(0);
    await securityKey.cdp.send('WebAuthn.removeVirtualAuthenticator', {
      authenticatorId: securityKey.id,
    });

    // At aal2 the passkey can be removed, after a confirmation.
    await page.goto('/admin/account');
    await passkeys.getByRole('button', { name: 'Remove Home laptop' }).click();
    const confirm = passkeys.getByRole('alertdialog', { name: 'Remove passkey' });
    await expect(confirm).toContainText('Remove “Home laptop”?');
    await confirm.getByRole('button', { name: 'Remove passkey' }).click();
    await expect(passkeys.getByText('No passkey yet.')).toBeVisible();

    // Without a passkey on the server, the authenticator's credential signs nobody in.
    await signOut(page);
    const again = await openSignIn(page);
    await again.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(again.getByRole('alert')).toHaveText('Credential verification failed');
  });
});
