import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import jsQRModule from 'jsqr';
import {
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

const PASSWORD = 'Kiosk-journey-2026!';
const shots = fileURLToPath(new URL('../screenshots/', import.meta.url));

// jsqr is CommonJS typed as an ES module: its default export is the module itself here.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

/** What the ticket's QR code says, read from its pixels as a phone's camera would. */
async function readTicketQr(page: Page): Promise<string> {
  const pixels = await page.getByTestId('ticket-qr').evaluate(async (element) => {
    const image = element as HTMLImageElement;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth || 240;
    canvas.height = image.naturalHeight || 240;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    context.fillStyle = '#fff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    const data = context.getImageData(0, 0, canvas.width, canvas.height);
    return { width: data.width, height: data.height, rgba: Array.from(data.data) };
  });
  return jsQR(Uint8ClampedArray.from(pixels.rgba), pixels.width, pixels.height)?.data ?? '';
}

test.describe('the reception kiosk and the status link', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a walk-in takes a number at the kiosk, follows the ticket’s QR to its live status, and sees “your turn” when staff call', async ({
    browser,
    request,
  }) => {
    const staff = await signUpViaApi(request, uniqueEmail('kiosk'), PASSWORD);
    const company = await createCompanyOnPlan(request, staff, {
      name: 'Kiosk Clinic',
      timezone: 'UTC',
    });
    const queue = await createQueue(request, staff, {
      companyId: company.id,
      name: 'Walk-in clinic',
      tokenPrefix: 'K',
      mode: 'walk_in',
      intakeQuestions: [
        {
          id: 'errand',
          label: 'What is your visit about?',
          kind: 'choice',
          options: ['A prescription', 'Something else'],
          required: true,
        },
      ],
    });
    const { sessionId, today } = await openSessionToday(request, staff, queue.id);

    // The tablet at reception, opened by staff.
    const kiosk = await (
      await browser.newContext({ viewport: { width: 1280, height: 900 } })
    ).newPage();
    await useSession(kiosk, staff);
    await kiosk.goto(`/admin/kiosk/${sessionId}`);
    await expect(kiosk.getByRole('heading', { name: 'Take a number' })).toBeVisible();
    expect(await blockingViolations(kiosk)).toEqual([]);
    // Nothing on the kiosk leads elsewhere in the app (the skip link stays on the page).
    await expect(kiosk.locator('a[href]:not([href^="#"])')).toHaveCount(0);
    await kiosk.screenshot({ path: `${shots}kiosk-1280.png` });

    await kiosk.getByLabel('Your name').fill('Wendy Walker');
    // The queue's question is asked here too: no number without its answer.
    await kiosk.getByRole('button', { name: 'Get my number' }).click();
    await expect(kiosk.getByText('Please answer this question.')).toBeVisible();
    await expect(kiosk.getByRole('radio', { name: 'A prescription' })).toBeFocused();
    await kiosk.getByRole('radio', { name: 'A prescription' }).check();
    await kiosk.getByRole('button', { name: 'Get my number' }).click();
    await expect(kiosk.getByTestId('ticket-number')).toHaveText('K-001');
    const statusUrl = await readTicketQr(kiosk);
    expect(statusUrl).toMatch(/\/visit\/[A-Za-z0-9_-]{43}$/);
    expect(await blockingViolations(kiosk)).toEqual([]);
    await kiosk.screenshot({ path: `${shots}kiosk-ticket-1280.png` });
    // "Done" readies the kiosk for the next person, the form empty.
    await kiosk.getByRole('button', { name: 'Done' }).click();
    await expect(kiosk.getByLabel('Your name')).toHaveValue('');

    // The walk-in's phone, no account: realtime only (the polling fallback is off).
    const phone = await (
      await browser.newContext({ viewport: { width: 390, height: 844 } })
    ).newPage();
    await withoutPollingFallback(phone);
    const listens = subscribed(phone, '/topic/visit/');
    await phone.goto(statusUrl);
    await expect(phone.getByTestId('token-number')).toHaveText('K-001');
    await expect(phone.getByTestId('token-position')).toHaveText('1');
    await listens;
    expect(await blockingViolations(phone)).toEqual([]);
    await phone.screenshot({ path: `${shots}visit-390.png`, fullPage: true });
    // Nothing about the visitor's name on a page anyone with the link can open.
    await expect(phone.getByText('Wendy Walker')).toHaveCount(0);

    const desk = await (await browser.newContext()).newPage();
    await useSession(desk, staff);
    await desk.goto(`/admin/live-sessions/all/${today}/${sessionId}`);
    await desk.getByRole('button', { name: 'Call next' }).click();
    // The desk sees what the walk-in answered at the kiosk.
    await expect(desk.getByTestId('booking-answers')).toContainText('A prescription');

    await expect(phone.getByText('It is your turn')).toBeVisible({ timeout: LIVE_WITHIN_MS });
    await phone.screenshot({ path: `${shots}visit-called-390.png`, fullPage: true });

    // Served: the link stops working.
    await desk.getByRole('button', { name: 'Complete' }).click();
    await expect(phone.getByRole('heading', { name: 'This visit has ended' })).toBeVisible({
      timeout: LIVE_WITHIN_MS,
    });
  });

  test('the status page and the kiosk at 390 and 1280 px have no blocking accessibility violations', async ({
    browser,
    request,
  }) => {
    const staff = await signUpViaApi(request, uniqueEmail('kiosk-a11y'), PASSWORD);
    const company = await createCompanyOnPlan(request, staff, {
      name: 'Kiosk and status page with a rather long company name for wrapping',
      timezone: 'UTC',
    });
    const queue = await createQueue(request, staff, {
      companyId: company.id,
      name: 'Passport renewals and replacements (adults and children)',
      tokenPrefix: 'P',
      mode: 'walk_in',
      intakeQuestions: [
        {
          id: 'documents',
          label: 'Which documents have you brought with you today for this appointment?',
          helpText: 'Your old passport, a birth certificate, or both.',
          kind: 'text',
          required: false,
        },
      ],
    });
    const { sessionId } = await openSessionToday(request, staff, queue.id);
    const issued = await api<{ statusUrl: string }>(
      request,
      staff,
      'POST',
      '/queues/sessions/tokens',
      {
        sessionId,
        visitorName: 'Ann Lee',
      },
    );
    for (const width of [390, 1280]) {
      const page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
      await page.goto(new URL(issued.statusUrl).pathname);
      await expect(page.getByTestId('token-number')).toHaveText('P-001');
      expect(await blockingViolations(page)).toEqual([]);
      await page.screenshot({ path: `${shots}visit-${width}.png`, fullPage: true });
      await useSession(page, staff);
      await page.goto(`/admin/kiosk/${sessionId}`);
      await expect(page.getByRole('heading', { name: 'Take a number' })).toBeVisible();
      expect(await blockingViolations(page)).toEqual([]);
      await page.screenshot({ path: `${shots}kiosk-${width}.png`, fullPage: true });
    }
  });
});
