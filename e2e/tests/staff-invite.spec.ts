import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { api, createCompanyOnPlan, signUpViaApi } from './api-helpers.ts';
import { followMailLink, uniqueEmail } from './auth-helpers.ts';

const PASSWORD = 'Invite-journey-2026!';
const shots = fileURLToPath(new URL('../screenshots/', import.meta.url));

test('a staff invitation’s link signs the invitee in on their account page and asks for a password', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const owner = await signUpViaApi(request, uniqueEmail('owner'), PASSWORD);
  const company = await createCompanyOnPlan(request, owner, {
    name: 'Invite Clinic',
    timezone: 'UTC',
  });
  const invitee = uniqueEmail('invitee');
  await api(request, owner, 'POST', `/company/${company.id}/users`, {
    email: invitee,
    role: 'staff',
  });

  // The link goes through /auth/v1/verify to /admin/account#access_token=...&type=invite.
  await followMailLink(page, invitee, 'You have been invited to join Invite Clinic on UpNext');
  const dialog = page.getByRole('dialog', { name: 'Choose your password' });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/admin\/account$/); // not bounced home, tokens out of the URL
  await expect(dialog.getByText(/You were invited and are signed in/)).toBeVisible();
  await page.screenshot({ path: `${shots}staff-invite-password-1280.png` });

  await dialog.getByLabel('New password', { exact: true }).fill(PASSWORD);
  await dialog.getByLabel('Repeat the new password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Save the new password' }).click();
  await expect(dialog).toBeHidden();

  // The password now signs them in.
  const signIn = await request.post('/auth/v1/token?grant_type=password', {
    data: { email: invitee, password: PASSWORD },
  });
  expect(signIn.ok(), await signIn.text()).toBe(true);
});
