import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { api, createCompanyOnPlan, createQueue, signUpViaApi, useSession } from './api-helpers.ts';
import { uniqueEmail } from './auth-helpers.ts';
import { blockingViolations } from './axe.ts';

const PASSWORD = 'Booking-journey-2026!';
const shots = fileURLToPath(new URL('../screenshots/', import.meta.url));
const DAY = 86_400_000;

/** axe at both widths, and a picture of each for a person to look at. */
async function checkAt390And1280(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    expect(await blockingViolations(page)).toEqual([]);
    // From the top, nothing focused: the sticky header and skip link sit where a reader sees them.
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      window.scrollTo(0, 0);
    });
    await page.screenshot({ path: `${shots}${name}-${width}.png`, fullPage: true });
  }
}

test.describe('booking like Cal.com', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a visitor books with answers through the confirmation step, then reschedules; staff see the answers', async ({
    page,
    request,
    browser,
  }) => {
    const staff = await signUpViaApi(request, uniqueEmail('bk-owner'), PASSWORD);
    const company = await createCompanyOnPlan(request, staff, {
      name: 'Harbour Physio',
      timezone: 'UTC',
    });
    const queue = await createQueue(request, staff, {
      companyId: company.id,
      name: 'Physiotherapy',
      tokenPrefix: 'P',
      mode: 'slots',
      changeCutoffMinutes: 120,
      intakeQuestions: [
        {
          id: 'reason',
          label: 'What brings you in?',
          helpText: 'A few words are enough.',
          kind: 'text',
          required: true,
        },
        {
          id: 'first-visit',
          label: 'Is this your first visit?',
          kind: 'choice',
          options: ['Yes', 'No'],
          required: true,
        },
      ],
    });
    const service = await api<{ id: string }>(
      request,
      staff,
      'POST',
      `/queues/${queue.id}/service-types`,
      { name: 'Assessment', durationMinutes: 30 },
    );
    const sessionIds: string[] = [];
    for (const days of [2, 3]) {
      const scheduled = await api<{ sessions: Array<{ id: string }> }>(
        request,
        staff,
        'POST',
        '/queues/sessions/schedule',
        {
          queueId: queue.id,
          date: new Date(Date.now() + days * DAY).toISOString().slice(0, 10),
          startTime: '09:00',
          endTime: '11:00',
          capacity: 20,
          services: [{ serviceTypeId: service.id, slotMinutes: 30, capacityPerSlot: 1 }],
        },
      );
      sessionIds.push(scheduled.sessions[0]?.id as string);
    }

    const visitor = await signUpViaApi(request, uniqueEmail('bk-visitor'), PASSWORD);
    // A returning visitor: their name is known, so the join page does not ask it.
    await api(request, visitor, 'PATCH', '/user/profile', { displayName: 'Kim Runner' });
    await useSession(page, visitor);
    await page.goto(`/join?queue=${queue.joinCode}`);
    await page
      .getByRole('button', { name: /^Choose a time/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Book 09:30' }).click();

    // The confirmation step: what, when, the questions and the rule; nothing booked yet.
    const review = page.getByRole('region', { name: 'Review and confirm' });
    await expect(review).toBeVisible();
    await expect(review.getByText('Assessment')).toBeVisible();
    await expect(review.getByText('09:30–10:00 (UTC)')).toBeVisible();
    await expect(review.getByTestId('change-rule')).toHaveText(
      'You can cancel or reschedule up to 2 hours before your time.',
    );
    await review.getByRole('button', { name: 'Confirm booking' }).click();
    await expect(review.getByText('Please answer this question.')).toHaveCount(2);
    const unbooked = await api<unknown[]>(request, staff, 'POST', '/queues/sessions/tokens-query', {
      sessionId: sessionIds[0],
    });
    expect(unbooked).toEqual([]);
    await review.getByLabel('What brings you in?').fill('My left knee hurts after running.');
    await review.getByRole('radio', { name: 'Yes' }).check();
    await checkAt390And1280(page, 'booking-review');
    await review.getByRole('button', { name: 'Confirm booking' }).click();
    await expect(page.getByText('Your token')).toBeVisible();
    await expect(page.getByText('P-001').first()).toBeVisible();

    // My visits: the answers and the rule, then Reschedule to the next day's 10:00.
    await page.goto('/admin/my-sessions');
    const card = page.getByTestId(/^token-/).first();
    await expect(card.getByTestId('booking-answers')).toContainText(
      'My left knee hurts after running.',
    );
    await expect(card.getByTestId('change-rule')).toContainText(
      'You can cancel or reschedule until',
    );
    await checkAt390And1280(page, 'booking-my-visits');
    await card.getByRole('button', { name: 'Reschedule booking P-001' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reschedule P-001' });
    await expect(dialog.getByRole('button', { name: '09:30, your booking now' })).toBeDisabled();
    await checkAt390And1280(page, 'booking-reschedule');
    await dialog.getByRole('combobox', { name: 'Day' }).click();
    // The Day list's second day (the page's language switcher has options of its own).
    await page.getByRole('listbox').getByRole('option').nth(1).click();
    await dialog.getByRole('button', { name: 'Book 10:00' }).click();
    await expect(dialog.getByText(/^Move P-001 from .* to .*10:00\?$/)).toBeVisible();
    await checkAt390And1280(page, 'booking-reschedule-confirm');
    await dialog.getByRole('button', { name: 'Move my booking' }).click();
    await expect(page.getByText(/Your booking is now P-001, .*10:00/)).toBeVisible();

    // Moved to the other session, the same token: staff of that session see it with its answers.
    const moved = await api<Array<{ slotNo: number; answers: unknown[] }>>(
      request,
      staff,
      'POST',
      '/queues/sessions/tokens-query',
      { sessionId: sessionIds[1] },
    );
    expect(moved).toMatchObject([
      { slotNo: 3, answers: [{ value: 'My left knee hurts after running.' }, { value: 'Yes' }] },
    ]);
    const staffContext = await browser.newContext();
    const staffPage = await staffContext.newPage();
    await useSession(staffPage, staff);
    await staffPage.goto(`/admin/session-tokens/${sessionIds[1]}`);
    await expect(staffPage.getByTestId('booking-answers').first()).toContainText(
      'Is this your first visit?',
    );
    await expect(staffPage.getByText('My left knee hurts after running.')).toBeVisible();
    await checkAt390And1280(staffPage, 'booking-staff-answers');
    await staffContext.close();
  });
});
