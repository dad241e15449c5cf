import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Page, test } from '@playwright/test';
import {
  type ApiSession,
  api,
  createQueue,
  openSessionToday,
  signUpViaApi,
  useSession,
} from './api-helpers.ts';
import { expect, uniqueEmail } from './auth-helpers.ts';
import { blockingViolations } from './axe.ts';

const PASSWORD = 'Reading-the-reports-2026!';
const shots = fileURLToPath(new URL('../screenshots/', import.meta.url));

type Token = {
  id: string;
  kind: string;
  status: string;
  joinedAt: string;
  calledAt: string | null;
  serviceSeconds: number | null;
};

/** PostgreSQL's `percentile_cont(0.5)`: the middle value, or the mean of the two middle ones. */
function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = (sorted.length - 1) / 2;
  return ((sorted[Math.floor(middle)] as number) + (sorted[Math.ceil(middle)] as number)) / 2;
}

/** Both widths: no serious or critical axe violation, and a full-page picture of each. */
async function checkBothWidths(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
    expect(await blockingViolations(page)).toEqual([]);
    await page.screenshot({ path: `${shots}${name}-${width}.png`, fullPage: true });
  }
}

test.describe('reports', () => {
  test.describe.configure({ timeout: 240_000 });
  // The company counts in UTC; so does the browser, so "today" is the same day for both.
  test.use({ timezoneId: 'UTC' });

  test("the reports page shows a seeded day's figures, as the token rows in the database give them", async ({
    page,
    request,
  }) => {
    const owner: ApiSession = await signUpViaApi(request, uniqueEmail('reports'), PASSWORD);
    const company = await api<{ id: string }>(request, owner, 'POST', '/company', {
      name: 'Quayside Health Centre',
      timezone: 'UTC',
    });
    const queue = await createQueue(request, owner, {
      companyId: company.id,
      name: 'Front desk',
    });
    const { sessionId } = await openSessionToday(request, owner, queue.id);

    // The day: six walk-ins; three served, one no-show, one cancelled, one still waiting.
    const issued: string[] = [];
    for (const name of ['Ada', 'Ben', 'Cleo', 'Dev', 'Eli', 'Fay']) {
      const token = await api<{ id: string }>(request, owner, 'POST', '/queues/sessions/tokens', {
        sessionId,
        visitorName: name,
      });
      issued.push(token.id);
    }
    const next = () =>
      api<{ called: { id: string } | null }>(
        request,
        owner,
        'POST',
        '/queues/sessions/next-token',
        {
          sessionId,
        },
      );
    const act = (tokenId: string, action: string) =>
      api(request, owner, 'POST', `/queues/sessions/tokens/${tokenId}/${action}`, {});
    for (let i = 0; i < 3; i += 1) {
      const { called } = await next();
      await act(called?.id as string, 'start');
      await act(called?.id as string, 'complete');
    }
    const { called: absent } = await next();
    await act(absent?.id as string, 'no-show');
    await api(request, owner, 'POST', '/queues/sessions/tokens-cancel', {
      tokenId: issued[4],
    });

    // What the database holds for the day, read back through the API.
    const rows = await api<Token[]>(request, owner, 'POST', '/queues/sessions/tokens-query', {
      sessionId,
    });
    const served = rows.filter((r) => r.status === 'served');
    const expected = {
      visits: rows.length,
      served: served.length,
      noShows: rows.filter((r) => r.status === 'no_show').length,
      cancelled: rows.filter((r) => r.status === 'cancelled').length,
      walkIns: rows.filter((r) => r.kind === 'walk_in').length,
    };
    expect(expected).toEqual({ visits: 6, served: 3, noShows: 1, cancelled: 1, walkIns: 6 });
    const timed = served.filter((r) => r.serviceSeconds !== null);
    const medianService = median(timed.map((r) => r.serviceSeconds as number));
    const medianWait = median(
      timed.map((r) => (Date.parse(r.calledAt as string) - Date.parse(r.joinedAt)) / 1000),
    );

    await useSession(page, owner);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/admin/reports');
    const figure = (id: string) => page.getByTestId(`figure-${id}`);
    await expect(figure('visits')).toContainText(String(expected.visits), { timeout: 30_000 });
    await expect(figure('served')).toContainText(String(expected.served));
    await expect(figure('noShows')).toContainText(String(expected.noShows));
    await expect(figure('cancelled')).toContainText(String(expected.cancelled));
    // Seconds as the page writes them ("45 s", "1 min 5 s"): under a minute here.
    expect(medianService).not.toBeNull();
    expect(medianWait).not.toBeNull();
    expect(medianService as number).toBeLessThan(60);
    expect(medianWait as number).toBeLessThan(60);
    await expect(figure('service')).toContainText(`${Math.round(medianService as number)} s`);
    await expect(figure('wait')).toContainText(`${Math.round(medianWait as number)} s`);
    // Today is the last day of the default week: its row holds the same figures.
    const today = page.getByTestId('report-periods').locator('tbody tr').last();
    await expect(today.locator('td')).toHaveText([
      /.+/,
      String(expected.visits),
      String(expected.served),
      String(expected.noShows),
      String(expected.cancelled),
      String(expected.walkIns),
      '0',
      `${Math.round(medianWait as number)} s`,
      `${Math.round(medianService as number)} s`,
    ]);
    await expect(page.getByText('6 Walk-ins')).toBeVisible();
    await checkBothWidths(page, 'reports');
    // The periods table comes as a file too.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export table (CSV)' }).click();
    const csv = readFileSync(await (await download).path(), 'utf8');
    expect(csv).toContain('period start,visits,served,no-shows,cancelled,walk-ins,bookings');
    expect(csv.trim().split('\r\n').at(-1)).toMatch(
      new RegExp(
        `^\\d{4}-\\d{2}-\\d{2},${expected.visits},${expected.served},${expected.noShows},${expected.cancelled},${expected.walkIns},0,`,
      ),
    );

    // A week with nothing in it: the empty state.
    await page.goto('/admin/reports?from=2020-01-06&to=2020-01-12');
    await expect(page.getByRole('heading', { name: 'No visits in this period' })).toBeVisible({
      timeout: 30_000,
    });
    await checkBothWidths(page, 'reports-empty');

    // A reversed period is explained, not fetched.
    await page.goto('/admin/reports?from=2020-01-12&to=2020-01-06');
    await expect(page.getByRole('alert')).toContainText('The period ends before it starts.');
  });
});
