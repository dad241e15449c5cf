import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import {
  type ApiSession,
  api,
  createCompanyOnPlan,
  createQueue,
  openSessionToday,
  signUpViaApi,
  useSession,
} from './api-helpers.ts';
import { uniqueEmail } from './auth-helpers.ts';
import { blockingViolations } from './axe.ts';
import { LIVE_WITHIN_MS, subscribed, withoutPollingFallback } from './realtime-helpers.ts';

const PASSWORD = 'Visitor-journey-2026!';
const shots = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** A company with a queue run by `staff`, in UTC so "today" is the same for everyone here. */
async function openQueue(request: Parameters<typeof api>[0], staff: ApiSession, prefix: string) {
  const company = await createCompanyOnPlan(request, staff, {
    name: `Journey Clinic ${prefix}`,
    timezone: 'UTC',
  });
  const queue = await createQueue(request, staff, {
    companyId: company.id,
    name: 'Walk-in clinic',
    tokenPrefix: prefix,
    mode: 'hybrid',
  });
  return { company, queue };
}

test.describe('visitor journeys', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a visitor takes a token by link; staff call next and pause; the visitor and the board see it live', async ({
    browser,
    request,
  }) => {
    const staff = await signUpViaApi(request, uniqueEmail('desk'), PASSWORD);
    const { queue } = await openQueue(request, staff, 'W');
    const { sessionId, today } = await openSessionToday(request, staff, queue.id);

    // The visitor, signed in, follows the queue's join link and takes a token; only realtime
    // can change their page (the polling fallback is off). Visitors are on their phones.
    const visitorPage = await (
      await browser.newContext({ viewport: { width: 390, height: 844 } })
    ).newPage();
    await withoutPollingFallback(visitorPage);
    await useSession(visitorPage, await signUpViaApi(request, uniqueEmail('visitor'), PASSWORD));
    const visitorListens = Promise.all([
      subscribed(visitorPage, '/topic/user/'),
      subscribed(visitorPage, `/topic/session/${sessionId}`),
    ]);
    await visitorPage.goto(`/join?queue=${queue.joinCode}`);
    await visitorPage
      .getByRole('button', { name: /^Take a token/ })
      .first()
      .click();
    // A first visit asks once for the name staff will call.
    await visitorPage.getByLabel('Your name').fill('Vera Visitor');
    await visitorPage.getByRole('button', { name: 'Continue' }).click();
    await expect(visitorPage.getByText('Your token')).toBeVisible();
    await expect(visitorPage.getByText('W-001').first()).toBeVisible();
    // Its status link, to follow it elsewhere without signing in.
    await expect(visitorPage.getByTestId('status-link')).toHaveAttribute(
      'href',
      /^\/visit\/[\w-]{43}$/,
    );

    // A reload keeps the confirmation (never "Take a token" again for this session).
    await visitorPage.reload();
    await expect(visitorPage.getByTestId('token-number')).toHaveText('W-001');
    await expect(visitorPage.getByRole('button', { name: /^Take a token/ })).toHaveCount(0);
    await visitorListens;

    // The waiting room's board, anonymous, also realtime only.
    const boardPage = await (await browser.newContext()).newPage();
    await withoutPollingFallback(boardPage);
    const boardListens = subscribed(boardPage, `/topic/session/${sessionId}`);
    await boardPage.goto(`/display/${sessionId}`);
    await expect(boardPage.getByLabel('Nobody called yet')).toBeVisible();
    await boardListens;

    // Staff, in a second browser, press "Call next" on the live console.
    const staffPage = await (await browser.newContext()).newPage();
    await useSession(staffPage, staff);
    await staffPage.goto(`/admin/live-sessions/all/${today}/${sessionId}`);
    await staffPage.getByRole('button', { name: 'Call next' }).click();
    // Staff call a person by the name they gave, not by their email address.
    await expect(staffPage.getByText('Vera Visitor').first()).toBeVisible();

    const live = { timeout: LIVE_WITHIN_MS };
    await expect(visitorPage.getByText('It is your turn')).toBeVisible(live);
    await expect(boardPage.getByTestId('now-serving')).toHaveText('W-001', live);
    for (const screen of [visitorPage, boardPage, staffPage]) {
      expect(await blockingViolations(screen)).toEqual([]);
    }
    await visitorPage.screenshot({ path: `${shots}visit-your-turn-390.png`, fullPage: true });
    await staffPage.screenshot({ path: `${shots}visit-live-console-1280.png`, fullPage: true });

    // Staff pause the session: the visitor and the board say so at once.
    await staffPage.getByRole('button', { name: 'Pause' }).click();
    await expect(visitorPage.getByText('The session is paused')).toBeVisible(live);
    await expect(boardPage.getByText('Short pause: we will be right back')).toBeVisible(live);
    await visitorPage.screenshot({ path: `${shots}visit-session-paused-390.png`, fullPage: true });
    await boardPage.screenshot({ path: `${shots}display-paused-1280.png`, fullPage: true });
    await boardPage.setViewportSize({ width: 390, height: 844 });
    await boardPage.screenshot({ path: `${shots}display-paused-390.png`, fullPage: true });
  });

  test('a walk-in answers the queue questions online and at the desk; staff see the answers', async ({
    browser,
    request,
  }) => {
    const staff = await signUpViaApi(request, uniqueEmail('intake-desk'), PASSWORD);
    const company = await createCompanyOnPlan(request, staff, {
      name: 'Journey Passport Office',
      timezone: 'UTC',
    });
    const queue = await createQueue(request, staff, {
      companyId: company.id,
      name: 'Passport counter',
      tokenPrefix: 'Q',
      mode: 'walk_in',
      intakeQuestions: [
        {
          id: 'errand',
          label: 'What do you need today?',
          kind: 'choice',
          options: ['A new passport', 'A renewal'],
          required: true,
        },
        { id: 'notes', label: 'Anything we should know?', kind: 'text', required: false },
      ],
    });
    const { sessionId, today } = await openSessionToday(request, staff, queue.id);

    const visitor = await signUpViaApi(request, uniqueEmail('intake-visitor'), PASSWORD);
    await api(request, visitor, 'PATCH', '/user/profile', { displayName: 'Vic Online' });
    const page = await (
      await browser.newContext({ viewport: { width: 390, height: 844 } })
    ).newPage();
    await useSession(page, visitor);
    await page.goto(`/join?queue=${queue.joinCode}`);
    await page.getByRole('button', { name: /^Take a token/ }).click();
    const review = page.getByRole('region', { name: 'Review and confirm' });
    await review.getByRole('button', { name: 'Take my token' }).click();
    await expect(review.getByText('Please answer this question.')).toBeVisible();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await blockingViolations(page)).toEqual([]);
      await page.screenshot({ path: `${shots}visit-walk-in-review-${width}.png`, fullPage: true });
    }
    await review.getByRole('radio', { name: 'A renewal' }).check();
    await review.getByRole('button', { name: 'Take my token' }).click();
    await expect(page.getByText('Your token')).toBeVisible();
    await expect(page.getByText('Q-001').first()).toBeVisible();

    // The desk's walk-in form asks the same questions.
    const desk = await (await browser.newContext()).newPage();
    await useSession(desk, staff);
    await desk.goto(`/admin/live-sessions/all/${today}/${sessionId}`);
    const form = desk.getByRole('region', { name: 'Issue a walk-in token' });
    await form.getByLabel("Visitor's name").fill('Dee Desk');
    await form.getByRole('radio', { name: 'A new passport' }).check();
    await form.getByLabel('Anything we should know?').fill('Brings a child, aged 4.');
    for (const width of [390, 1280]) {
      await desk.setViewportSize({ width, height: 900 });
      expect(await blockingViolations(desk)).toEqual([]);
      await desk.screenshot({
        path: `${shots}live-walk-in-questions-${width}.png`,
        fullPage: true,
      });
    }
    await form.getByRole('button', { name: 'Issue token' }).click();
    await expect(form.getByText('Token Q-002 issued.')).toBeVisible();

    // Calling next brings the online walk-in, with what they answered.
    await desk.getByRole('button', { name: 'Call next' }).click();
    await expect(desk.getByTestId('now-serving')).toHaveText('Q-001');
    await expect(desk.getByTestId('booking-answers')).toContainText('A renewal');
    const tokens = await api<Array<{ displayNumber: string; answers: Array<{ value: string }> }>>(
      request,
      staff,
      'POST',
      '/queues/sessions/tokens-query',
      { sessionId },
    );
    expect(tokens.find((token) => token.displayNumber === 'Q-002')?.answers).toEqual([
      expect.objectContaining({ value: 'A new passport' }),
      expect.objectContaining({ value: 'Brings a child, aged 4.' }),
    ]);
  });

  test('a visitor books a slot and finds it in my sessions', async ({ page, request }) => {
    const staff = await signUpViaApi(request, uniqueEmail('desk'), PASSWORD);
    const { queue } = await openQueue(request, staff, 'B');
    const service = await api<{ id: string }>(
      request,
      staff,
      'POST',
      `/queues/${queue.id}/service-types`,
      {
        name: 'Consultation',
        durationMinutes: 20,
      },
    );
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await api(request, staff, 'POST', '/queues/sessions/schedule', {
      queueId: queue.id,
      date: tomorrow,
      startTime: '09:00',
      endTime: '11:00',
      capacity: 20,
      services: [{ serviceTypeId: service.id, slotMinutes: 30, capacityPerSlot: 2 }],
    });

    await useSession(page, await signUpViaApi(request, uniqueEmail('booker'), PASSWORD));
    // A join link from before `?queue=` still opens the queue.
    await page.goto(`/join?code=${queue.joinCode}`);
    await page
      .getByRole('button', { name: /^Choose a time/ })
      .first()
      .click();
    await page
      .getByRole('button', { name: /^Book / })
      .first()
      .click();
    // The confirmation step: nothing is booked before Confirm.
    await page.getByRole('button', { name: 'Confirm booking' }).click();
    await expect(page.getByRole('heading', { name: 'What is your name?' })).toBeVisible();
    expect(await blockingViolations(page)).toEqual([]);
    await page.screenshot({ path: `${shots}visit-name-step-1280.png`, fullPage: true });
    await page.getByLabel('Your name').fill('Bea Booker');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Your token')).toBeVisible();
    await expect(page.getByText('B-001').first()).toBeVisible();
    await page.screenshot({ path: `${shots}visit-join-booked-1280.png`, fullPage: true });

    await page.goto('/admin/my-sessions');
    await expect(page.getByText('B-001').first()).toBeVisible();
    await expect(page.getByText('Booked').first()).toBeVisible();
    // A visitor who belongs to no company sees their visits and account, never staff screens.
    const nav = page.getByRole('navigation', { name: 'Administration' });
    await expect(nav.getByRole('link', { name: 'My visits' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Account' })).toBeVisible();
    for (const staffOnly of ['Queues', 'Queue sessions', 'Session control', 'Reports', 'Company']) {
      await expect(nav.getByRole('link', { name: staffOnly, exact: true })).toHaveCount(0);
    }
    expect(await blockingViolations(page)).toEqual([]);
    await page.screenshot({ path: `${shots}visit-my-sessions-1280.png`, fullPage: true });
  });
});
