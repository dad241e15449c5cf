import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import {
  type ApiSession,
  api,
  createCompanyOnPlan,
  createQueue,
  signUpViaApi,
  todayAwayFromMidnight,
  useSession,
} from './api-helpers.ts';
import { uniqueEmail } from './auth-helpers.ts';
import { blockingViolations } from './axe.ts';
import { LIVE_WITHIN_MS, subscribed, withoutPollingFallback } from './realtime-helpers.ts';

const PASSWORD = 'Board-journey-2026!';
const shots = fileURLToPath(new URL('../screenshots/', import.meta.url));
const QUEUE_NAME = 'Walk-in, vaccination and repeat prescriptions';

type Request = Parameters<typeof api>[0];

/** A company (long name, UTC) with a queue of two counters, each with a session open today. */
async function twoCounters(request: Request, staff: ApiSession) {
  const company = await createCompanyOnPlan(request, staff, {
    name: 'Harbourview Community Health Centre and Pharmacy',
    timezone: 'UTC',
  });
  const queue = await createQueue(request, staff, {
    companyId: company.id,
    name: QUEUE_NAME,
    tokenPrefix: 'VAX',
    mode: 'walk_in',
  });
  const today = await todayAwayFromMidnight();
  const sessionIds: string[] = [];
  for (const name of ['Counter 1', 'Room 2 — Dr Perera-Wickramasinghe']) {
    const subQueue = await api<{ id: string }>(
      request,
      staff,
      'POST',
      `/queues/${queue.id}/sub-queues`,
      { name },
    );
    const scheduled = await api<{ sessions: Array<{ id: string }> }>(
      request,
      staff,
      'POST',
      '/queues/sessions/schedule',
      {
        queueId: queue.id,
        subQueueId: subQueue.id,
        date: today,
        startTime: '00:00',
        endTime: '23:59',
        capacity: 50,
      },
    );
    const sessionId = scheduled.sessions[0]?.id as string;
    await api(request, staff, 'POST', '/queues/sessions/status', { sessionId, status: 'open' });
    sessionIds.push(sessionId);
  }
  return { queue, today, sessionIds: sessionIds as [string, string] };
}

async function takeTokens(request: Request, sessionId: string, count: number) {
  for (let i = 0; i < count; i++) {
    const visitor = await signUpViaApi(request, uniqueEmail('boardvisitor'), PASSWORD);
    await api(request, visitor, 'POST', '/queues/sessions/tokens', { sessionId });
  }
}

/** Axe-clean and photographed at a phone's width and a wall screen's. */
async function checkAndShoot(page: Page, name: string) {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForLoadState('networkidle');
    expect(await blockingViolations(page)).toEqual([]);
    await page.screenshot({ path: `${shots}${name}-${width}.png`, fullPage: true });
  }
}

/** The number on the board fits its box on one line (never wraps, never overflows). */
async function fitsOneLine(page: Page, testId: string) {
  const box = await page
    .getByTestId(testId)
    .first()
    .evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const parent = element.parentElement?.getBoundingClientRect();
      return {
        lines: range.getClientRects().length,
        right: element.getBoundingClientRect().right,
        parentRight: parent?.right ?? 0,
      };
    });
  expect(box.lines).toBe(1);
  expect(box.right).toBeLessThanOrEqual(box.parentRight + 1);
}

test.describe('display boards', () => {
  test.describe.configure({ timeout: 180_000 });

  test('staff call tokens; the session board and the branch board show each call live, with every counter', async ({
    browser,
    request,
  }) => {
    const staff = await signUpViaApi(request, uniqueEmail('boards'), PASSWORD);
    const { queue, today, sessionIds } = await twoCounters(request, staff);
    const [first, second] = sessionIds;
    await takeTokens(request, first, 7);
    await takeTokens(request, second, 2);

    // Both boards anonymous (a wall screen is signed in to nobody) and realtime only.
    const boardPage = await (await browser.newContext()).newPage();
    await withoutPollingFallback(boardPage);
    const boardListens = subscribed(boardPage, `/topic/session/${first}`);
    await boardPage.goto(`/display/${first}`);
    await expect(boardPage.getByLabel('Nobody called yet')).toBeVisible();
    await expect(boardPage.getByText('Earlier calls show here.')).toBeVisible();
    await expect(
      boardPage.getByRole('img', { name: /QR code with the link to join/ }),
    ).toBeVisible();
    await boardListens;
    await checkAndShoot(boardPage, 'board-empty');

    const branchPage = await (await browser.newContext()).newPage();
    await withoutPollingFallback(branchPage);
    const branchListens = Promise.all(
      sessionIds.map((id) => subscribed(branchPage, `/topic/session/${id}`)),
    );
    await branchPage.goto(`/display/queue/${queue.id}`);
    await expect(branchPage.getByTestId('counter-card')).toHaveCount(2);
    await branchListens;
    await checkAndShoot(branchPage, 'branch-board-idle');

    // Staff call from the live console of each counter.
    const staffPage = await (
      await browser.newContext({ viewport: { width: 1280, height: 900 } })
    ).newPage();
    await useSession(staffPage, staff);
    await staffPage.goto(`/admin/live-sessions/all/${today}/${first}`);
    const live = { timeout: LIVE_WITHIN_MS };
    await staffPage.getByRole('button', { name: 'Call next' }).click();
    await expect(boardPage.getByTestId('now-serving')).toHaveText('VAX-001', live);
    // Both sessions start at midnight: find each counter's card by its name, not its place.
    const firstCard = branchPage.getByTestId('counter-card').filter({ hasText: 'Counter 1' });
    await expect(firstCard.getByTestId('counter-call')).toContainText('VAX-001', live);

    for (const label of ['VAX-002', 'VAX-003', 'VAX-004', 'VAX-005', 'VAX-006', 'VAX-007']) {
      await staffPage.getByRole('button', { name: 'Call next' }).click();
      await expect(boardPage.getByTestId('now-serving')).toHaveText(label, live);
    }
    // The calls before, newest first, each with its counter; at most five.
    const rows = boardPage.getByRole('table').getByRole('row');
    await expect(rows).toHaveCount(6);
    await expect(rows.nth(1)).toContainText('VAX-006');
    await expect(rows.nth(1)).toContainText('Counter 1');
    await expect(rows.nth(5)).toContainText('VAX-002');
    await expect(firstCard.getByTestId('counter-call')).toContainText('VAX-007', live);

    await staffPage.goto(`/admin/live-sessions/all/${today}/${second}`);
    await staffPage.getByRole('button', { name: 'Call next' }).click();
    const secondCard = branchPage
      .getByTestId('counter-card')
      .filter({ hasText: 'Room 2 — Dr Perera-Wickramasinghe' });
    await expect(secondCard.getByTestId('counter-call')).toContainText('VAX-001', live);
    await expect(secondCard).toContainText('Room 2 — Dr Perera-Wickramasinghe');

    await checkAndShoot(boardPage, 'board-calls');
    await fitsOneLine(boardPage, 'now-serving');
    await checkAndShoot(branchPage, 'branch-board-calls');

    // The boards are reachable from the live console and session control.
    await staffPage.setViewportSize({ width: 1280, height: 900 });
    await staffPage.getByRole('button', { name: 'Display boards' }).click();
    await expect(staffPage.getByRole('menuitem', { name: /This session's board/ })).toHaveAttribute(
      'href',
      `/display/${second}`,
    );
    await expect(
      staffPage.getByRole('menuitem', { name: new RegExp(`Every counter of ${QUEUE_NAME}`) }),
    ).toHaveAttribute('href', `/display/queue/${queue.id}`);
    await staffPage.screenshot({ path: `${shots}board-links-live-console-1280.png` });
    await staffPage.keyboard.press('Escape');
    await staffPage.goto('/admin/session-control');
    await expect(staffPage.getByRole('button', { name: /^Display boards:/ })).toHaveCount(2);
    await checkAndShoot(staffPage, 'board-links-session-control');
  });

  test('a branch board with no session today says so', async ({ browser, request }) => {
    const staff = await signUpViaApi(request, uniqueEmail('boardsempty'), PASSWORD);
    const company = await createCompanyOnPlan(request, staff, {
      name: 'Quiet Clinic',
      timezone: 'UTC',
    });
    const queue = await createQueue(request, staff, {
      companyId: company.id,
      name: 'Blood tests',
      tokenPrefix: 'B',
      mode: 'walk_in',
    });
    const page = await (await browser.newContext()).newPage();
    await page.goto(`/display/queue/${queue.id}`);
    await expect(page.getByText('No sessions are running here today.')).toBeVisible();
    await checkAndShoot(page, 'branch-board-empty');
  });
});
