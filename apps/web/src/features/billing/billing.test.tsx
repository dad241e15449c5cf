import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CompanyBilling } from '@upnext/contract/billing';
import type { Payment } from '@upnext/contract/payments';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { Component as AdminPaymentSuccessPage } from '../../app/routes/admin/PaymentSuccessPage.tsx';
import { pendingPaymentPolling as planPolling } from '../../entities/payment/api.ts';
import { setAuthSession } from '../../lib/auth-session.ts';
import { downloadCsv } from '../../lib/csv.ts';
import { leaveApp } from '../../lib/leave-app.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { BillingPanel } from './components/BillingPanel.tsx';
import { filtersToQuery, PaymentsPanel } from './components/PaymentsPanel.tsx';
import { paymentsToCsv } from './components/payments.ts';

vi.mock('../../lib/csv.ts', async (original) => ({
  ...(await original<typeof import('../../lib/csv.ts')>()),
  downloadCsv: vi.fn(),
}));

const COMPANY = '2c8e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f01';
const PAYMENT = '2c8e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f02';
const VISIT_PAYMENT = '2c8e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f03';
const CHECKOUT_URL = '/sandbox/checkout/cs_sbx_abcdefghijklmnop';

const freeBilling: CompanyBilling = {
  companyId: COMPANY,
  plan: 'free',
  planStatus: 'active',
  planRenewsAt: null,
  planCancelsAtPeriodEnd: false,
  monthlyPriceMinor: 0,
  currency: 'EUR',
  month: '2026-11',
  timezone: 'Europe/London',
  usage: [
    { resource: 'queues', limit: 1, used: 1, monthly: false },
    { resource: 'staff', limit: 2, used: 1, monthly: false },
    { resource: 'sessions', limit: 60, used: 12, monthly: true },
    { resource: 'tokens', limit: 300, used: 40, monthly: true },
    { resource: 'video', limit: 0, used: 0, monthly: true },
    { resource: 'paid_queues', limit: 0, used: 0, monthly: false },
  ],
};

const proBilling: CompanyBilling = {
  ...freeBilling,
  plan: 'pro',
  planRenewsAt: '2026-12-27T10:00:00.000Z',
  monthlyPriceMinor: 3900,
  usage: freeBilling.usage.map((usage) =>
    usage.resource === 'queues' ? { ...usage, limit: 10 } : usage,
  ),
};

const planPayment = (overrides: Partial<Payment> = {}): Payment => ({
  id: PAYMENT,
  companyId: COMPANY,
  companyName: 'Harbourview Health Centre',
  kind: 'plan',
  status: 'pending',
  provider: 'sandbox',
  listAmountMinor: 3900,
  amountMinor: 3900,
  currency: 'EUR',
  promotionCode: null,
  failureReason: null,
  payerEmail: 'owner@harbourview.example',
  checkoutUrl: CHECKOUT_URL,
  expiresAt: '2026-11-27T10:15:00.000Z',
  paidAt: null,
  refundStatus: null,
  refundedMinor: 0,
  refundReason: null,
  token: null,
  plan: 'pro',
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
  ...overrides,
});

const visitPayment = (overrides: Partial<Payment> = {}): Payment => ({
  ...planPayment(),
  id: VISIT_PAYMENT,
  kind: 'visit',
  status: 'paid',
  amountMinor: 2500,
  listAmountMinor: 2500,
  currency: 'GBP',
  payerEmail: 'vera@example.com',
  checkoutUrl: null,
  paidAt: '2026-11-26T09:12:00.000Z',
  plan: null,
  token: {
    id: '2c8e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f04',
    sessionId: '2c8e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f05',
    queueId: '2c8e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f06',
    queueName: 'Private GP, consultation',
    displayNumber: 'P-004',
    status: 'waiting',
    cancelReason: null,
  },
  createdAt: '2026-11-26T09:10:00.000Z',
  ...overrides,
});

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

type Handler = (url: string, init?: RequestInit) => Response | undefined;
const fetchMock = vi.fn<typeof fetch>();
function serve(handler: Handler) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    return (
      handler(url, init) ??
      json({ error: { code: 'not_found', message: `No stub for ${url}` } }, 404)
    );
  });
}
const calls = (prefix: string, method = 'GET') =>
  fetchMock.mock.calls.filter(
    ([input, init]) => String(input).startsWith(prefix) && (init?.method ?? 'GET') === method,
  );
const bodyOf = (prefix: string, method = 'POST') => {
  const call = calls(prefix, method).at(-1);
  return call?.[1]?.body ? JSON.parse(String(call[1].body)) : undefined;
};

const leave = vi.spyOn(leaveApp, 'to').mockImplementation(() => {});
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  setAuthSession({ accessToken: 'access-token', user: { id: COMPANY, email: 'o@example.com' } });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  leave.mockClear();
  vi.mocked(downloadCsv).mockClear();
  setAuthSession(null);
});

describe('Billing', { timeout: 30_000 }, () => {
  it('shows the plan, the use of each limit and the three plans; Upgrade opens the checkout', async () => {
    serve((url, init) => {
      if (url === `/api/company/${COMPANY}/billing`) return json({ data: freeBilling });
      if (url === '/api/payment-gateway/payment' && init?.method === 'POST') {
        return json(
          { data: { paymentId: PAYMENT, checkoutUrl: CHECKOUT_URL, status: 'pending' } },
          201,
        );
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderWithProviders(<BillingPanel companyId={COMPANY} canBuy />);

    expect(await screen.findByTestId('current-plan')).toHaveTextContent('Free plan');
    expect(screen.getByTestId('plan-status')).toHaveTextContent('Active');
    // The bars: a full limit says so, a plan without video says "Not included".
    const queues = screen.getByTestId('usage-queues');
    expect(queues).toHaveTextContent('1 of 1');
    expect(queues).toHaveTextContent('Limit reached');
    expect(
      screen.getByRole('progressbar', { name: 'Sessions scheduled: 12 of 60' }),
    ).toHaveAttribute('aria-valuenow', '20');
    expect(screen.getByTestId('usage-video')).toHaveTextContent('Not included');

    // The plan table's prices and limits, as on the pricing page.
    expect(screen.getByTestId('plan-free')).toHaveTextContent('1 queue');
    expect(screen.getByTestId('plan-pro')).toHaveTextContent('€39.00');
    expect(screen.getByTestId('plan-pro')).toHaveTextContent('10 queues');
    expect(screen.getByTestId('plan-business')).toHaveTextContent('€129.00');
    expect(screen.getByTestId('plan-business')).toHaveTextContent('Unlimited queues');
    expect(within(screen.getByTestId('plan-free')).getByRole('button')).toHaveTextContent(
      'Current plan',
    );

    await user.click(screen.getByRole('button', { name: 'Upgrade to Pro' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith(CHECKOUT_URL));
    expect(bodyOf('/api/payment-gateway/payment')).toEqual({ plan: 'pro', companyId: COMPANY });
  });

  it("cancels a paid plan only after the dialog says it stays until the period's end", async () => {
    let billing = proBilling;
    serve((url, init) => {
      if (url === `/api/company/${COMPANY}/billing`) return json({ data: billing });
      if (url === `/api/company/${COMPANY}/billing/cancel` && init?.method === 'POST') {
        billing = { ...proBilling, planCancelsAtPeriodEnd: true };
        return json({
          data: {
            companyId: COMPANY,
            plan: 'pro',
            planStatus: 'active',
            planRenewsAt: proBilling.planRenewsAt,
            planCancelsAtPeriodEnd: true,
          },
        });
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderWithProviders(<BillingPanel companyId={COMPANY} canBuy />);
    expect(await screen.findByText('Renews on December 27, 2026')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upgrade to Business' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Cancel plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the Pro plan?' });
    expect(dialog).toHaveTextContent('stays on Pro until December 27, 2026');
    expect(dialog).toHaveTextContent('Then it becomes Free: no data is lost');
    // Going back changes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Go back' }));
    expect(calls(`/api/company/${COMPANY}/billing/cancel`, 'POST')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Cancel plan' }));
    const again = await screen.findByRole('dialog', { name: 'Cancel the Pro plan?' });
    await user.click(within(again).getByRole('button', { name: 'Cancel plan' }));
    expect(await screen.findByTestId('plan-status')).toHaveTextContent(
      'Cancels on December 27, 2026',
    );
    expect(calls(`/api/company/${COMPANY}/billing/cancel`, 'POST')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Cancel plan' })).not.toBeInTheDocument();
  });

  it('shows admins the plan without buying or cancelling', async () => {
    serve((url) =>
      url === `/api/company/${COMPANY}/billing` ? json({ data: proBilling }) : undefined,
    );
    renderWithProviders(<BillingPanel companyId={COMPANY} canBuy={false} />);
    expect(
      await screen.findByText("Only the company's owners change or cancel the plan."),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Upgrade|Switch|Cancel/ })).not.toBeInTheDocument();
  });

  it("shows the server's refusal of a checkout in place and stays", async () => {
    serve((url, init) => {
      if (url === `/api/company/${COMPANY}/billing`) return json({ data: proBilling });
      if (url === '/api/payment-gateway/payment' && init?.method === 'POST') {
        return json(
          { error: { code: 'plan_already_active', message: 'The company already has this plan.' } },
          409,
        );
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderWithProviders(<BillingPanel companyId={COMPANY} canBuy />);
    await user.click(await screen.findByRole('button', { name: 'Upgrade to Business' }));
    expect(await screen.findByText('The company already has this plan.')).toBeInTheDocument();
    expect(leave).not.toHaveBeenCalled();
  });
});

describe('/admin/payment-success', { timeout: 30_000 }, () => {
  const open = (search: string) => {
    const router = createMemoryRouter(
      [{ path: '/admin/payment-success', element: <AdminPaymentSuccessPage /> }],
      { initialEntries: [`/admin/payment-success${search}`] },
    );
    renderWithProviders(<RouterProvider router={router} />);
  };

  it('waits while the webhook has not arrived, then shows the new plan and its renewal', async () => {
    const delay = planPolling.delay;
    planPolling.delay = () => 20;
    onTestFinished(() => {
      planPolling.delay = delay;
    });
    let reads = 0;
    serve((url) => {
      if (url === `/api/payments/${PAYMENT}`) {
        reads += 1;
        return json({
          data:
            reads < 3
              ? planPayment()
              : planPayment({ status: 'paid', paidAt: '2026-11-27T10:02:00.000Z' }),
        });
      }
      if (url === `/api/company/${COMPANY}/billing`) return json({ data: proBilling });
      return undefined;
    });
    open(`?paymentId=${PAYMENT}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Confirming your payment' }),
    ).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'You are now on Pro' }),
    ).toBeInTheDocument();
    expect(await screen.findByText(/It renews on December 27, 2026\./)).toBeInTheDocument();
    expect(screen.getByTestId('plan-receipt')).toHaveTextContent('€39.00');
    expect(reads).toBe(3);
    // Settled: no more reads.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reads).toBe(3);
  });

  it('stops asking after the bounded backoff and offers to check again', async () => {
    const polls = planPolling.maxPolls;
    planPolling.maxPolls = 0;
    onTestFinished(() => {
      planPolling.maxPolls = polls;
    });
    serve((url) =>
      url === `/api/payments/${PAYMENT}` ? json({ data: planPayment() }) : undefined,
    );
    open(`?paymentId=${PAYMENT}`);
    expect(await screen.findByText('This is taking longer than usual.')).toBeInTheDocument();
    expect(calls(`/api/payments/${PAYMENT}`)).toHaveLength(1);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(calls(`/api/payments/${PAYMENT}`)).toHaveLength(2));
  });

  it('says plainly when the card was declined, and leads back to Billing', async () => {
    serve((url) =>
      url === `/api/payments/${PAYMENT}`
        ? json({ data: planPayment({ status: 'failed', failureReason: 'card_declined' }) })
        : undefined,
    );
    open(`?paymentId=${PAYMENT}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'The payment did not go through' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('failure-reason')).toHaveTextContent('card declined');
    expect(
      screen.getByText('Nothing was charged and the plan has not changed.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Billing' })).toHaveAttribute(
      'href',
      '/admin/company?tab=billing',
    );
    expect(screen.queryByText(/You are now on/)).not.toBeInTheDocument();
  });

  it('never thanks anyone without a payment to show', async () => {
    serve(() => undefined);
    open('');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'No payment to show' }),
    ).toBeInTheDocument();
    expect(calls('/api/')).toHaveLength(0);
  });
});

describe('the payments list', { timeout: 30_000 }, () => {
  const listUrl = `/api/company/${COMPANY}/payments`;

  it('sends the filters as the query, refunds part of a payment after the dialog, and exports the list', async () => {
    let refunded: Payment | null = null;
    serve((url, init) => {
      if (url === `/api/company/${COMPANY}/billing`) return json({ data: proBilling });
      if (url.startsWith(listUrl)) {
        const items = [refunded ?? visitPayment(), planPayment({ status: 'paid' })];
        return json({ data: { items, total: items.length, page: 1, pageSize: 25 } });
      }
      if (url === `/api/payments/${VISIT_PAYMENT}/refund` && init?.method === 'POST') {
        refunded = visitPayment({ refundStatus: 'succeeded', refundedMinor: 1250 });
        return json({ data: refunded });
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderWithProviders(<PaymentsPanel companyId={COMPANY} />);

    const row = await screen.findByTestId(`payment-${VISIT_PAYMENT}`);
    expect(row).toHaveTextContent('Token P-004 · Private GP, consultation');
    expect(row).toHaveTextContent('£25.00');
    expect(row).toHaveTextContent('vera@example.com');
    expect(within(row).getByText('Paid')).toBeInTheDocument();
    expect(screen.getByTestId(`payment-${PAYMENT}`)).toHaveTextContent('Pro plan');

    await user.click(screen.getByLabelText('Status', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Paid' }));
    await waitFor(() =>
      expect(calls(listUrl).some(([url]) => String(url).includes('status=paid'))).toBe(true),
    );
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'P-004');
    await waitFor(() =>
      expect(
        calls(listUrl).some(([url]) => {
          const params = new URL(String(url), 'http://x').searchParams;
          return params.get('query') === 'P-004' && params.get('status') === 'paid';
        }),
      ).toBe(true),
    );

    await user.click(
      within(row).getByRole('button', {
        name: 'Refund the payment of £25.00 from vera@example.com',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Refund £25.00?' });
    await user.click(within(dialog).getByRole('radio', { name: 'Refund part of it' }));
    const amount = within(dialog).getByRole('textbox', { name: 'Amount to refund' });
    await user.type(amount, '30');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(
      await within(dialog).findByText('Enter an amount above 0 and at most £25.00.'),
    ).toBeInTheDocument();
    expect(calls(`/api/payments/${VISIT_PAYMENT}/refund`, 'POST')).toHaveLength(0);

    await user.clear(amount);
    await user.type(amount, '12.5');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodyOf(`/api/payments/${VISIT_PAYMENT}/refund`)).toEqual({ amountMinor: 1250 });
    const after = await screen.findByTestId(`payment-${VISIT_PAYMENT}`);
    await waitFor(() => expect(after).toHaveTextContent('Refunded'));
    expect(after).toHaveTextContent('£12.50 of £25.00');

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalledTimes(1));
    const [, text] = vi.mocked(downloadCsv).mock.calls[0] ?? [];
    expect(text?.split('\r\n')).toHaveLength(4);
    const exportCall = calls(listUrl).at(-1)?.[0];
    const params = new URL(String(exportCall), 'http://x').searchParams;
    expect(params.get('pageSize')).toBe('500');
    expect(params.get('status')).toBe('paid');
    expect(params.get('query')).toBe('P-004');
  });

  it('turns the chosen days into instants, the last day included', () => {
    const query = filtersToQuery({
      kind: 'visit',
      status: '',
      from: '2026-11-01',
      to: '2026-11-30',
      search: '  vera ',
    });
    expect(query.kind).toBe('visit');
    expect(query.status).toBeUndefined();
    expect(query.query).toBe('vera');
    expect(new Date(query.from ?? '').getTime()).toBe(new Date('2026-11-01T00:00:00').getTime());
    expect(new Date(query.to ?? '').getTime()).toBe(new Date('2026-12-01T00:00:00').getTime());
  });

  it('writes one CSV line per payment, with amounts in the currency unit and the company time', () => {
    const csv = paymentsToCsv(
      [visitPayment({ refundStatus: 'succeeded', refundedMinor: 2500 }), planPayment()],
      'Europe/London',
    );
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'created,created (company time),kind,status,payer,for,amount,list amount,currency,promotion code,refund status,refunded,paid,payment id',
    );
    expect(lines[1]).toContain(
      'visit,paid,vera@example.com,"Token P-004 · Private GP, consultation",25.00,25.00,GBP,,succeeded,25.00',
    );
    expect(lines[1]).toContain('26 Nov 2026, 09:10');
    expect(lines[2]).toContain('plan,pending,owner@harbourview.example,Pro plan,39.00,39.00,EUR');
    expect(lines).toHaveLength(4);
  });
});
