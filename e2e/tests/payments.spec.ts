import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
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

const PASSWORD = 'Paying-visitor-2026!';
const shots = fileURLToPath(new URL('../screenshots/', import.meta.url));

type Token = { id: string; status: string; displayNumber: string };

/** A company whose walk-in queue costs £25.00, with today's session open. */
async function paidQueue(request: Parameters<typeof api>[0], staff: ApiSession) {
  const company = await createCompanyOnPlan(request, staff, {
    name: 'Harbourview Private Clinic',
    timezone: 'UTC',
  });
  const queue = await createQueue(request, staff, {
    companyId: company.id,
    name: 'Private GP consultation',
    tokenPrefix: 'P',
    mode: 'walk_in',
    priceMinor: 2500,
    currency: 'GBP',
    cancelNoticeMinutes: 60,
    refundPercent: 50,
  });
  const { sessionId } = await openSessionToday(request, staff, queue.id);
  return { queue, sessionId };
}

/** The browser contexts a test opened, closed after it. */
const contexts: BrowserContext[] = [];

/** A signed-in visitor on a phone-sized page. */
async function visitor(browser: Browser, request: Parameters<typeof api>[0], label: string) {
  const session = await signUpViaApi(request, uniqueEmail(label), PASSWORD);
  // A returning visitor: their name is known, so the join page does not ask it first.
  await api(request, session, 'PATCH', '/user/profile', { displayName: `Visitor ${label}` });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  contexts.push(context);
  const page = await context.newPage();
  await useSession(page, session);
  return { page, session };
}

/** Join the queue, take a token (held as awaiting payment) and go to the checkout. */
async function takeAndPay(page: Page, joinCode: string, shot?: string) {
  await page.goto(`/join?queue=${joinCode}`);
  // The first screen of a fresh browser (a cold chunk cache, a loaded machine) may be slow.
  await expect(page.getByTestId('queue-price')).toHaveText('Price: £25.00', { timeout: 20_000 });
  if (shot) await page.screenshot({ path: `${shots}${shot}-join-price-390.png`, fullPage: true });
  await page
    .getByRole('button', { name: /^Take a token/ })
    .first()
    .click();
  const panel = page.getByRole('region', { name: 'Payment' });
  await expect(panel).toBeVisible();
  await expect(page.getByText('Awaiting payment')).toBeVisible();
  await expect(panel.getByTestId('pay-hold')).toContainText(/held for 1[45]:\d\d more/);
  if (shot) {
    await page.screenshot({ path: `${shots}${shot}-join-pending-390.png`, fullPage: true });
  }
  await panel.getByRole('button', { name: 'Pay £25.00' }).click();
  await page.waitForURL(/\/sandbox\/checkout\/cs_sbx_/);
  await expect(page.getByTestId('checkout-amount')).toHaveText('£25.00', { timeout: 20_000 });
  await expect(page.getByTestId('sandbox-banner')).toContainText('Sandbox — no real money');
}

async function fillCard(page: Page, number: string) {
  await page.getByRole('textbox', { name: 'Card number' }).fill(number);
  await page.getByRole('textbox', { name: 'Expiry date' }).fill('1234');
  await page.getByRole('textbox', { name: 'Security code (CVC)' }).fill('123');
  await page.getByRole('textbox', { name: 'Name on card' }).fill('Vera Visitor');
}

async function shootBoth(page: Page, name: string) {
  await page.screenshot({ path: `${shots}${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${shots}${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
}

test.describe('paid visits on the sandbox checkout', () => {
  // Several browsers, full page loads and axe on a shared machine: minutes, not seconds.
  test.describe.configure({ timeout: 360_000 });
  test.afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });

  test('a visitor pays with the success card and sees the live token; another is declined and holds nothing', async ({
    browser,
    request,
  }) => {
    const staff = await signUpViaApi(request, uniqueEmail('clinic'), PASSWORD);
    const { queue } = await paidQueue(request, staff);

    // The first visitor pays with the success card, filled from the page's list of test cards.
    const first = await visitor(browser, request, 'payer');
    await takeAndPay(first.page, queue.joinCode, 'pay');
    expect(await blockingViolations(first.page)).toEqual([]);
    await shootBoth(first.page, 'pay-checkout');
    await first.page.getByRole('button', { name: 'Use test card 4242 4242 4242 4242' }).click();
    await first.page.getByRole('button', { name: 'Pay £25.00' }).click();

    // Back on our own page: the real outcome (read from the server), and the token, live.
    await first.page.waitForURL(/\/payment-success\?paymentId=/);
    await expect(first.page.getByRole('heading', { level: 1 })).toHaveText('Payment received', {
      timeout: 20_000,
    });
    await expect(first.page.getByTestId('token-number')).toHaveText('P-001');
    await expect(first.page.getByTestId('token-position')).toHaveText('1');
    await expect(first.page.getByText('Waiting', { exact: true })).toBeVisible();
    await expect(first.page.getByTestId('receipt')).toContainText('£25.00');
    await expect(first.page.getByTestId('payment-status')).toHaveText('Paid £25.00');
    expect(await blockingViolations(first.page)).toEqual([]);
    await shootBoth(first.page, 'pay-success-paid');
    const paid = await api<Token[]>(
      request,
      first.session,
      'POST',
      '/queues/sessions/tokens-query',
      {
        mine: true,
      },
    );
    expect(paid.map((t) => [t.displayNumber, t.status])).toEqual([['P-001', 'waiting']]);

    // The cancel dialog in My sessions says what the queue's rule gives back.
    await first.page.goto('/admin/my-sessions');
    await first.page.getByRole('button', { name: 'Cancel token P-001' }).click();
    await expect(first.page.getByTestId('refund-rule')).toContainText('50% (£12.50)');
    await shootBoth(first.page, 'pay-my-sessions-cancel');
    // The dialog's own button (its close button has the same name).
    await first.page.getByRole('button', { name: 'Keep it' }).last().click();

    // The second visitor's card is declined: said plainly, and nothing is held for them.
    const second = await visitor(browser, request, 'declined');
    await takeAndPay(second.page, queue.joinCode);
    await fillCard(second.page, '4000 0000 0000 0002');
    await second.page.getByRole('button', { name: 'Pay £25.00' }).click();
    await expect(
      second.page.getByRole('heading', { name: 'Your card was declined' }),
    ).toBeVisible();
    expect(await blockingViolations(second.page)).toEqual([]);
    await shootBoth(second.page, 'pay-checkout-declined');
    await second.page
      .getByRole('link', { name: 'Return to Harbourview Private Clinic to try another card' })
      .click();
    await second.page.waitForURL(/\/payment-success\?paymentId=/);
    await expect(second.page.getByRole('heading', { level: 1 })).toHaveText(
      'Your payment did not go through',
      { timeout: 20_000 },
    );
    await expect(second.page.getByTestId('failure-reason')).toHaveText('Your card was declined.');
    expect(await blockingViolations(second.page)).toEqual([]);
    await shootBoth(second.page, 'pay-success-failed');
    const held = await api<Token[]>(
      request,
      second.session,
      'POST',
      '/queues/sessions/tokens-query',
      {
        mine: true,
      },
    );
    expect(held.filter((t) => t.status !== 'cancelled')).toEqual([]);
    await second.page.getByRole('link', { name: 'Back to the queue' }).click();
    await expect(second.page.getByRole('button', { name: /^Take a token/ })).toBeVisible();
  });

  test('the extra confirmation step: approving pays', async ({ browser, request }) => {
    const staff = await signUpViaApi(request, uniqueEmail('clinic'), PASSWORD);
    const { queue } = await paidQueue(request, staff);
    const { page } = await visitor(browser, request, 'confirmer');
    await takeAndPay(page, queue.joinCode);
    await fillCard(page, '4000 0027 6000 3184');
    await page.getByRole('button', { name: 'Pay £25.00' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm your payment' });
    await expect(dialog).toBeVisible();
    expect(await blockingViolations(page)).toEqual([]);
    await shootBoth(page, 'pay-checkout-confirm');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/\/payment-success\?paymentId=/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment received', {
      timeout: 20_000,
    });
    await expect(page.getByTestId('token-number')).toHaveText('P-001');
  });

  test('a signed-out browser is asked to sign in to see the payment', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/payment-success?paymentId=00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Sign in to see your payment',
      { timeout: 20_000 },
    );
    expect(await blockingViolations(page)).toEqual([]);
    await shootBoth(page, 'pay-success-signed-out');
  });
});
