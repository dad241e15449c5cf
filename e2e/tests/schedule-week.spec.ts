import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { type ApiSession, api, createQueue, signUpViaApi, useSession } from './api-helpers.ts';
import { blockingViolations } from './axe.ts';

const shots = fileURLToPath(new URL('../screenshots/', import.meta.url));

const day = (offset: number) => {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + offset);
  return date.toISOString().slice(0, 10);
};

/**
 * A company in UTC with a queue of two counters: sessions on "Room 2" in the week a week on, and
 * on "Dr Perera" one session a week from today at 10:00 that a weekly 09:00–12:00 series from
 * today meets.
 */
async function seed(request: APIRequestContext, owner: ApiSession) {
  const company = await api<{ id: string }>(request, owner, 'POST', '/company', {
    name: 'Harbour Clinic',
    timezone: 'UTC',
  });
  const queue = await createQueue(request, owner, {
    companyId: company.id,
    name: 'General practice',
    tokenPrefix: 'A',
    mode: 'walk_in',
  });
  const [perera, room] = await Promise.all(
    ['Dr Perera', 'Room 2'].map((name) =>
      api<{ id: string }>(request, owner, 'POST', `/queues/${queue.id}/sub-queues`, { name }),
    ),
  );
  const schedule = (subQueueId: string, date: string, startTime: string, endTime: string) =>
    api<{ sessions: Array<{ id: string }> }>(request, owner, 'POST', '/queues/sessions/schedule', {
      queueId: queue.id,
      subQueueId,
      date,
      startTime,
      endTime,
      capacity: 30,
    });
  const clash = await schedule(perera?.id as string, day(7), '10:00', '11:00');
  // The Monday of the week a week from now.
  const monday = 7 - ((new Date().getUTCDay() + 6) % 7);
  for (const [offset, start, end] of [
    [0, '08:30', '12:00'],
    [1, '14:00', '17:30'],
    [6, '09:00', '10:00'],
  ] as const) {
    await schedule(room?.id as string, day(monday + offset), start, end);
  }
  const cancelled = await schedule(room?.id as string, day(monday + 3), '13:00', '15:00');
  await api(request, owner, 'POST', '/queues/sessions/status', {
    sessionId: cancelled.sessions[0]?.id,
    status: 'cancelled',
  });
  return { queueId: queue.id, clashId: clash.sessions[0]?.id as string };
}

async function shoot(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  await page.waitForLoadState('networkidle');
  // From the top, nothing hovered or focused: the sticky header stays where it belongs.
  await page.mouse.move(0, 0);
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await page.screenshot({ path: `${shots}schedule-week-${name}-${width}.png`, fullPage: true });
}

for (const width of [390, 1280]) {
  test.describe(`week view and skipping a clash at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 }, actionTimeout: 15_000 });

    test('the week of sessions, and a series that skips its clashing date', async ({
      page,
      request,
    }) => {
      test.setTimeout(180_000);
      const owner = await signUpViaApi(
        request,
        `week-${width}-${Date.now().toString(36)}@example.test`,
        'Week-view-2026!',
      );
      const { queueId } = await seed(request, owner);
      await useSession(page, owner);

      // Week view: seven days of the week a week from now, each session under its day.
      await page.goto(`/admin/queue-sessions?view=week&date=${day(7)}`);
      await expect(page.getByText(/^5 sessions in the week/)).toBeVisible();
      await expect(page.getByRole('heading', { level: 2 })).toHaveCount(7);
      await expect(page.getByText('Cancelled')).toBeVisible();
      expect(await blockingViolations(page)).toEqual([]);
      await shoot(page, 'week');

      // A weekly series from today on Dr Perera meets the session a week on: skip that date.
      await page.goto(`/admin/schedule-session/${queueId}`);
      await page.getByText('Every week').click();
      // Mantine's Select is a textbox or a combobox by version.
      await page
        .getByRole('textbox', { name: 'Counter' })
        .or(page.getByRole('combobox', { name: 'Counter' }))
        .click();
      await page.getByRole('option', { name: 'Dr Perera' }).click();
      await page.getByRole('button', { name: 'Check and preview' }).click();
      await expect(page.getByRole('alert').filter({ hasText: /1 date overlaps/ })).toBeVisible();
      await shoot(page, 'clash');
      await page.getByRole('button', { name: /^Skip this date/ }).click();
      await expect(page.getByText('4 sessions will be created. No overlaps.')).toBeVisible();
      await expect(page.getByText('Skipped: clashes')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Create 4 sessions' })).toBeEnabled();
      expect(await blockingViolations(page)).toEqual([]);
      await shoot(page, 'skipped-clash');

      await page.getByRole('button', { name: 'Create 4 sessions' }).click();
      await expect(page).toHaveURL(/\/admin\/queue-sessions\?/);
      // The skipped date keeps only the session that was there.
      await page.goto(`/admin/queue-sessions?date=${day(7)}&queue=${queueId}`);
      await expect(page.getByText(/^1 session on/)).toBeVisible();
    });
  });
}
