import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { signUpViaApi, useSession } from './api-helpers.ts';
import { blockingViolations } from './axe.ts';

const shots = fileURLToPath(new URL('../screenshots/', import.meta.url));
const PASSWORD = 'Queue-journey-2026!';

function signUp(request: APIRequestContext, email: string) {
  return signUpViaApi(request, email, PASSWORD);
}

/**
 * No serious or critical WCAG 2.1 AA violation. With a modal dialog open, only the dialog is
 * checked: the page behind it is dimmed by the overlay and out of reach (aria-modal).
 */
async function expectAccessible(page: Page): Promise<void> {
  const modal = '[role="dialog"][aria-modal="true"]';
  const open = (await page.locator(modal).count()) > 0;
  expect(await blockingViolations(page, open ? modal : undefined)).toEqual([]);
}

async function shoot(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: `${shots}workspace-${name}-${width}.png`, fullPage: true });
}

/** A Mantine Select or MultiSelect: open it by its label and pick an option. */
async function choose(page: Page, label: string | RegExp, option: string | RegExp): Promise<void> {
  // Mantine's Select is a textbox, its MultiSelect a combobox.
  await page
    .getByRole('textbox', { name: label })
    .or(page.getByRole('combobox', { name: label }))
    .click();
  await page.getByRole('option', { name: option }).click();
}

function isoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

test.describe('provider workspace', () => {
  test.use({ viewport: { width: 1280, height: 900 }, actionTimeout: 15_000 });

  test('create a company, invite staff, set up a queue, schedule a series and open it', async ({
    page,
    request,
  }) => {
    test.setTimeout(240_000);
    const stamp = Date.now().toString(36);
    const ownerEmail = `owner-${stamp}@example.test`;
    const staffEmail = `staff-${stamp}@example.test`;
    await useSession(page, await signUp(request, ownerEmail));

    // Company: the new owner has none, so the page offers to create one.
    await page.goto('/admin/company');
    await expect(page.getByRole('heading', { level: 1, name: 'Company' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Create your company' })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, 'company-create');
    await page.getByRole('button', { name: 'Create company' }).click();
    await expect(page.getByText('This field is required')).toBeVisible();
    await page.getByRole('textbox', { name: /Company name/ }).fill('Harbour Clinic');
    await page.getByRole('button', { name: 'Create company' }).click();
    await expect(page.getByRole('tab', { name: 'Settings' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: /Company name/ })).toHaveValue('Harbour Clinic');
    await expectAccessible(page);
    await shoot(page, 'company-settings');

    // Staff: invite by email with a role; the new member is listed as invited.
    await page.getByRole('tab', { name: 'Staff and invites' }).click();
    await page.getByRole('textbox', { name: /Email address/ }).fill(staffEmail);
    await page.getByRole('button', { name: 'Send invite' }).click();
    const staffRow = page.getByRole('row', { name: new RegExp(staffEmail) });
    await expect(staffRow).toBeVisible();
    await expect(staffRow.getByText('Invited')).toBeVisible();
    const ownerRow = page.getByRole('row', { name: new RegExp(ownerEmail) });
    await expect(ownerRow.getByText('Owner')).toBeVisible();
    await expectAccessible(page);
    await shoot(page, 'company-staff');

    // Queues: create one, then its counters and a service type in the drawer.
    await page.getByRole('link', { name: 'Queues', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'No queues yet' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create your first queue' }).click();
    const queueDialog = page.getByRole('dialog', { name: 'New queue' });
    await queueDialog.getByRole('textbox', { name: /^Name/ }).fill('General practice');
    await queueDialog.getByText('Walk-in and appointments').click();
    await expectAccessible(page);
    await queueDialog.getByRole('button', { name: 'Create queue' }).click();

    const drawer = page.getByRole('dialog', { name: 'General practice' });
    await expect(drawer.getByRole('tab', { name: 'Counters', selected: true })).toBeVisible();
    for (const counter of ['Dr Perera', 'Counter 2']) {
      await drawer.getByRole('button', { name: 'Add counter' }).click();
      const counterDialog = page.getByRole('dialog', { name: 'New counter' });
      await counterDialog.getByRole('textbox', { name: /^Name/ }).fill(counter);
      if (counter === 'Dr Perera') {
        await choose(page, /Assigned staff/, ownerEmail);
        // A MultiSelect stays open for more choices: click outside it to close it.
        await counterDialog.getByRole('heading', { name: 'New counter' }).click();
      }
      await counterDialog.getByRole('button', { name: 'Save' }).click();
      await expect(counterDialog).toBeHidden();
      await expect(drawer.getByRole('listitem').filter({ hasText: counter })).toBeVisible();
    }
    await expect(drawer.getByRole('listitem').filter({ hasText: 'Dr Perera' })).toContainText(
      ownerEmail,
    );
    await expectAccessible(page);
    await shoot(page, 'queue-counters');

    await drawer.getByRole('tab', { name: 'Services' }).click();
    await drawer.getByRole('button', { name: 'Add service' }).click();
    const serviceDialog = page.getByRole('dialog', { name: 'New service' });
    await serviceDialog.getByRole('textbox', { name: /^Name/ }).fill('Consultation');
    await serviceDialog.getByRole('textbox', { name: /Duration/ }).fill('20');
    await serviceDialog.getByRole('button', { name: 'Save' }).click();
    await expect(drawer.getByRole('listitem').filter({ hasText: 'Consultation' })).toContainText(
      '20 minutes',
    );

    await drawer.getByRole('tab', { name: 'Link and QR' }).click();
    const link = drawer.getByRole('textbox', { name: 'Join link' });
    await expect(link).toHaveValue(/\/join\?queue=[A-Z0-9]{4,12}$/);
    await expect(
      drawer.getByRole('img', { name: /QR code that opens the join page/ }),
    ).toBeVisible();
    const download = page.waitForEvent('download');
    await drawer.getByRole('button', { name: /Download QR code/ }).click();
    expect((await download).suggestedFilename()).toBe('general-practice-qr.svg');
    await expectAccessible(page);
    await shoot(page, 'queue-join-link');
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('article', { name: 'General practice' })).toBeVisible();
    await shoot(page, 'queues');

    // Schedule: a weekly series on every day for two weeks, checked before saving.
    await page.getByRole('link', { name: 'Schedule a session of General practice' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Schedule a session' })).toBeVisible();
    await page.getByText('Every week').click();
    for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']) {
      const chip = page.getByRole('checkbox', { name: day });
      if (!(await chip.isChecked())) await page.locator('label').filter({ hasText: day }).click();
    }
    const until = new Date();
    until.setDate(until.getDate() + 13);
    await page.getByRole('button', { name: /Repeat until/ }).click();
    const untilLabel = until.toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    });
    // The calendar opens at the series' default end (four weeks ahead): step back to `until`.
    const untilDay = page.getByRole('button', { name: untilLabel, exact: true });
    for (let step = 0; step < 2 && !(await untilDay.isVisible()); step++) {
      await page.getByRole('button', { name: 'Previous month' }).click();
    }
    await untilDay.click();
    await choose(page, /^Counter/, 'Dr Perera');
    await page.getByRole('textbox', { name: /^Starts/ }).fill('09:00');
    await page.getByRole('textbox', { name: /^Ends/ }).fill('17:00');
    await page.getByRole('button', { name: 'Add a service' }).click();
    await choose(page, /^Service/, 'Consultation');
    await expect(page.getByText('24 slots of 20 min')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create sessions' })).toBeDisabled();
    await page.getByRole('button', { name: 'Check and preview' }).click();
    await expect(page.getByText('14 sessions will be created. No overlaps.')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Preview' }).getByRole('row')).toHaveCount(15);
    await expectAccessible(page);
    await shoot(page, 'schedule-preview');
    await page.getByRole('button', { name: 'Create 14 sessions' }).click();

    // Queue sessions: the schedule lands on its first day, filtered to the queue.
    await expect(page).toHaveURL(/\/admin\/queue-sessions\?/);
    await expect(page.getByRole('heading', { level: 1, name: 'Queue sessions' })).toBeVisible();
    const today = page.getByRole('listitem').filter({ hasText: 'General practice' });
    await expect(today).toHaveCount(1);
    await expect(today).toContainText('09:00–17:00');
    await expect(today).toContainText('Scheduled');
    await expect(today).toContainText('Series');
    await expectAccessible(page);
    await shoot(page, 'queue-sessions');

    // Scheduling the same slot again is refused before saving: the preview names the clash.
    await page.getByRole('link', { name: 'Queues', exact: true }).click();
    await page.getByRole('link', { name: 'Schedule a session of General practice' }).click();
    await choose(page, /^Counter/, 'Dr Perera');
    await page.getByRole('textbox', { name: /^Starts/ }).fill('10:00');
    await page.getByRole('textbox', { name: /^Ends/ }).fill('11:00');
    await page.getByRole('button', { name: 'Check and preview' }).click();
    await expect(page.getByText('1 date overlaps an existing session')).toBeVisible();
    await expect(page.getByText('Overlaps 09:00–17:00 (Scheduled)')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create sessions' })).toBeDisabled();
    await expectAccessible(page);
    await shoot(page, 'schedule-conflict');

    // Session control: today's session of this staff member; open it and go live.
    await page.getByRole('link', { name: 'Session control', exact: true }).click();
    const mine = page.getByRole('listitem').filter({ hasText: 'General practice' });
    await expect(mine).toHaveCount(1);
    await mine.getByRole('button', { name: /^Open:/ }).click();
    await expect(mine.getByText('Open', { exact: true })).toBeVisible();
    await expect(mine.getByRole('button', { name: /^Pause:/ })).toBeVisible();
    const live = mine.getByRole('link', { name: /^Go live:/ });
    await expect(live).toHaveAttribute(
      'href',
      new RegExp(`^/admin/live-sessions/[0-9a-f-]{36}/${isoDate(new Date())}/[0-9a-f-]{36}$`),
    );
    await expectAccessible(page);
    await shoot(page, 'session-control');

    // Every screen at phone width: nothing cut off, still accessible.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [name, path] of [
      ['company-settings', '/admin/company'],
      ['queues', '/admin/queues'],
      ['queue-sessions', '/admin/queue-sessions'],
      ['session-control', '/admin/session-control'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectAccessible(page);
      await shoot(page, name);
    }
    await page.goto('/admin/queues');
    await page.getByRole('button', { name: 'Join link and QR code of General practice' }).click();
    await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
    await shoot(page, 'queue-join-link');
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Schedule a session of General practice' }).click();
    await expect(page.getByRole('button', { name: 'Check and preview' })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, 'schedule');
  });
});
