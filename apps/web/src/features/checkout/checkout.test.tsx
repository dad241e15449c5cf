import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SandboxCheckout } from '@upnext/contract/payments';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Component as SandboxCheckoutPage } from '../../app/routes/SandboxCheckoutPage.tsx';
import { leaveApp } from '../../lib/leave-app.ts';
import { renderWithProviders } from '../../test/render.tsx';

const ID = 'cs_sbx_abcdefghijklmnop';
const BASE = `/api/payment-gateway/sandbox/checkouts/${ID}`;
const SUCCESS = '/payment-success?paymentId=1b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f25';
const CANCEL = '/join?queue=PAIDGP';

const open: SandboxCheckout = {
  checkoutId: ID,
  merchantName: 'Harbourview Health Centre',
  description: 'Private GP consultation, token P-004',
  amountMinor: 2500,
  currency: 'GBP',
  mode: 'payment',
  status: 'open',
  failureCode: null,
  expiresAt: new Date(Date.now() + 14 * 60_000).toISOString(),
  successUrl: SUCCESS,
  cancelUrl: CANCEL,
  confirmationToken: null,
};

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

const fetchMock = vi.fn<typeof fetch>();

/** The sandbox as the contract describes it: the card decides the outcome. */
function serve(answers: {
  pay?: (body: Record<string, string>) => Response;
  confirm?: (body: { approve: boolean; confirmationToken: string }) => Response;
}) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    if (url === BASE) return json({ data: open });
    if (url === `${BASE}/pay` && answers.pay) return answers.pay(body);
    if (url === `${BASE}/confirm` && answers.confirm) return answers.confirm(body);
    if (url === `${BASE}/cancel`) return json({ data: { ...open, status: 'cancelled' } });
    return json({ error: { code: 'not_found', message: `No stub for ${url}` } }, 404);
  });
}

const calls = (path: string) => fetchMock.mock.calls.filter(([input]) => String(input) === path);

function render() {
  const router = createMemoryRouter(
    [{ path: '/sandbox/checkout/:checkoutId', element: <SandboxCheckoutPage /> }],
    { initialEntries: [`/sandbox/checkout/${ID}`] },
  );
  renderWithProviders(<RouterProvider router={router} />);
}

async function fill(user: ReturnType<typeof userEvent.setup>, number: string) {
  await user.type(screen.getByLabelText(/Card number/), number);
  await user.type(screen.getByLabelText(/Expiry date/), '1234');
  await user.type(screen.getByLabelText(/Security code/), '123');
  await user.type(screen.getByLabelText(/Name on card/), 'Vera Visitor');
}

describe('the sandbox checkout', { timeout: 30_000 }, () => {
  const leave = vi.spyOn(leaveApp, 'to').mockImplementation(() => {});
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    leave.mockClear();
  });

  it('shows merchant, purpose, amount and the sandbox banner, with labelled card fields', async () => {
    serve({});
    render();
    expect(await screen.findByTestId('checkout-amount')).toHaveTextContent('£25.00');
    expect(screen.getByText('Pay Harbourview Health Centre')).toBeInTheDocument();
    expect(screen.getByText('Private GP consultation, token P-004')).toBeInTheDocument();
    expect(screen.getByTestId('sandbox-banner')).toHaveTextContent('Sandbox — no real money');
    expect(screen.getByLabelText(/Card number/)).toHaveAttribute('autocomplete', 'cc-number');
    expect(screen.getByLabelText(/Expiry date/)).toHaveAttribute('autocomplete', 'cc-exp');
    expect(screen.getByLabelText(/Security code/)).toHaveAttribute('autocomplete', 'cc-csc');
    expect(screen.getByLabelText(/Name on card/)).toHaveAttribute('autocomplete', 'cc-name');
    expect(screen.getByRole('button', { name: 'Pay £25.00' })).toBeInTheDocument();
    const cards = screen.getByRole('region', { name: 'Test cards' });
    expect(within(cards).getByText('4242 4242 4242 4242')).toBeInTheDocument();
    expect(within(cards).getByText('4000 0000 0000 0002')).toBeInTheDocument();
    expect(within(cards).getByText('4000 0027 6000 3184')).toBeInTheDocument();
  });

  it('checks the card before sending it and moves focus to the first problem', async () => {
    serve({});
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: 'Pay £25.00' }));
    expect(screen.getByLabelText(/Card number/)).toHaveFocus();
    expect(screen.getByText('Enter the card number.')).toBeInTheDocument();
    expect(screen.getByText('Enter the expiry date as MM/YY.')).toBeInTheDocument();
    expect(screen.getByText('Enter the 3 or 4 digits of the security code.')).toBeInTheDocument();
    expect(screen.getByText('Enter the name on the card.')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/Card number/), '4242424242424241');
    expect(screen.getByLabelText(/Card number/)).toHaveValue('4242 4242 4242 4241');
    await user.type(screen.getByLabelText(/Expiry date/), '0120');
    expect(screen.getByLabelText(/Expiry date/)).toHaveValue('01/20');
    await user.click(screen.getByRole('button', { name: 'Pay £25.00' }));
    expect(screen.getByText(/This card number is not valid/)).toBeInTheDocument();
    expect(screen.getByText('This card has expired.')).toBeInTheDocument();
    expect(screen.getByLabelText(/Card number/)).toHaveFocus();
    expect(screen.getByLabelText(/Card number/)).toHaveAttribute('aria-invalid', 'true');
    expect(calls(`${BASE}/pay`)).toHaveLength(0);
  });

  it('pays with the success card (filled from the list) and returns to the success page', async () => {
    let sent: unknown;
    serve({
      pay: (body) => {
        sent = body;
        return json({ data: { ...open, status: 'paid' } });
      },
    });
    const user = userEvent.setup();
    render();
    await user.click(
      await screen.findByRole('button', { name: 'Use test card 4242 4242 4242 4242' }),
    );
    expect(screen.getByLabelText(/Card number/)).toHaveValue('4242 4242 4242 4242');
    await user.click(screen.getByRole('button', { name: 'Pay £25.00' }));
    expect(await screen.findByText('Payment successful')).toBeInTheDocument();
    await waitFor(() => expect(leave).toHaveBeenCalledWith(SUCCESS));
    expect(sent).toEqual({
      number: '4242 4242 4242 4242',
      expiry: '12/34',
      cvc: '123',
      name: 'Test Visitor',
    });
  });

  it('says a decline plainly, and the way back is to the merchant to try another card', async () => {
    serve({
      pay: () => json({ data: { ...open, status: 'failed', failureCode: 'card_declined' } }),
    });
    const user = userEvent.setup();
    render();
    await screen.findByTestId('checkout-amount');
    await fill(user, '4000000000000002');
    await user.click(screen.getByRole('button', { name: 'Pay £25.00' }));
    const declined = await screen.findByRole('heading', { name: 'Your card was declined' });
    expect(declined).toHaveFocus();
    expect(screen.getByText(/Nothing was charged and no place is held/)).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'Return to Harbourview Health Centre to try another card' }),
    ).toHaveAttribute('href', SUCCESS);
    expect(screen.queryByRole('button', { name: 'Pay £25.00' })).not.toBeInTheDocument();
    expect(leave).not.toHaveBeenCalled();
  });

  it("puts the sandbox's refusal of a card on its field", async () => {
    serve({
      pay: () =>
        json({ error: { code: 'invalid_card_number', message: 'Not a sandbox test card.' } }, 422),
    });
    const user = userEvent.setup();
    render();
    await screen.findByTestId('checkout-amount');
    await fill(user, '5555555555554444');
    await user.click(screen.getByRole('button', { name: 'Pay £25.00' }));
    expect(
      await screen.findByText(
        'The sandbox accepts only its test cards: use one of the cards below.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/Card number/)).toHaveFocus();
  });

  it.each([
    [true, 'paid'],
    [false, 'failed'],
  ] as const)('runs the extra confirmation step (approve: %s)', async (approve, status) => {
    let confirmed: unknown;
    serve({
      pay: () =>
        json({
          data: { ...open, status: 'requires_confirmation', confirmationToken: 'conf-123' },
        }),
      confirm: (body) => {
        confirmed = body;
        return json({
          data: {
            ...open,
            status,
            failureCode: status === 'failed' ? 'authentication_failed' : null,
          },
        });
      },
    });
    const user = userEvent.setup();
    render();
    await screen.findByTestId('checkout-amount');
    await fill(user, '4000002760003184');
    await user.click(screen.getByRole('button', { name: 'Pay £25.00' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your payment' });
    expect(dialog).toHaveTextContent('£25.00 to Harbourview Health Centre');
    await user.click(within(dialog).getByRole('button', { name: approve ? 'Approve' : 'Refuse' }));
    expect(confirmed).toEqual({ confirmationToken: 'conf-123', approve });
    if (approve) {
      await waitFor(() => expect(leave).toHaveBeenCalledWith(SUCCESS));
    } else {
      expect(
        await screen.findByRole('heading', { name: 'The payment was not confirmed' }),
      ).toBeInTheDocument();
      expect(leave).not.toHaveBeenCalled();
    }
  });

  it('leaves without paying: tells the sandbox, then returns to the merchant', async () => {
    serve({});
    const user = userEvent.setup();
    render();
    await user.click(
      await screen.findByRole('button', { name: 'Return to Harbourview Health Centre' }),
    );
    await waitFor(() => expect(leave).toHaveBeenCalledWith(CANCEL));
    expect(calls(`${BASE}/cancel`)).toHaveLength(1);
  });

  it('says a checkout that does not exist in plain words', async () => {
    fetchMock.mockImplementation(async () =>
      json({ error: { code: 'checkout_not_found', message: 'No such checkout.' } }, 404),
    );
    render();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This checkout does not exist' }),
    ).toBeInTheDocument();
  });
});
