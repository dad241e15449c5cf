import { QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Payment, TokenPayment } from '@upnext/contract/payments';
import type { Queue } from '@upnext/contract/queues';
import type { Session } from '@upnext/contract/sessions';
import type { QueueToken } from '@upnext/contract/tokens';
import type { UserData } from '@upnext/contract/users';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { Component as MySessionsPage } from '../../app/routes/admin/MySessionsPage.tsx';
import { Component as JoinPage } from '../../app/routes/JoinPage.tsx';
import { Component as PaymentSuccessPage } from '../../app/routes/PaymentSuccessPage.tsx';
import { pendingPaymentPolling as pendingPolling } from '../../entities/payment/api.ts';
import { setAuthSession } from '../../lib/auth-session.ts';
import { leaveApp } from '../../lib/leave-app.ts';
import { realtime } from '../../lib/stomp-client.ts';
import { fakeRealtime } from '../../test/realtime.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { refundOnCancel } from './components/refundRule.ts';

vi.mock('../../lib/stomp-client.ts', async (original) =>
  (await import('../../test/realtime.ts')).mockStompClient(await original()),
);

const QUEUE = '1b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f21';
const COMPANY = '1b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f22';
const SESSION = '1b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f23';
const TOKEN = '1b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f24';
const PAYMENT = '1b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f25';
const CHECKOUT_URL = '/sandbox/checkout/cs_sbx_abcdefghijklmnop';

const queue: Queue = {
  id: QUEUE,
  companyId: COMPANY,
  company: {
    id: COMPANY,
    name: 'Harbourview Health Centre',
    slug: 'harbourview',
    timezone: 'Europe/London',
    logoUrl: null,
  },
  name: 'Private GP consultation',
  description: '',
  joinCode: 'PAIDGP',
  tokenPrefix: 'P',
  mode: 'walk_in',
  online: false,
  visibility: 'public',
  priceMinor: 2500,
  currency: 'GBP',
  cancelNoticeMinutes: 1440,
  refundPercent: 50,
  changeCutoffMinutes: 0,
  intakeQuestions: [],
  tokensPerVisitor: 1,
  turnApproachingThreshold: 3,
  status: 'active',
  createdAt: '2026-03-01T08:00:00.000Z',
  updatedAt: '2026-03-01T08:00:00.000Z',
};

const session: Session = {
  id: SESSION,
  queueId: QUEUE,
  queueName: queue.name,
  companyId: COMPANY,
  subQueueId: null,
  subQueueName: null,
  date: '2026-03-30',
  startTime: '09:00',
  endTime: '12:00',
  timezone: 'Europe/London',
  startsAt: '2026-03-30T08:00:00.000+00:00',
  endsAt: '2026-03-30T11:00:00.000+00:00',
  capacity: 50,
  status: 'open',
  online: false,
  notes: '',
  visitorNotes: '',
  seriesId: null,
  counts: {
    issued: 3,
    booked: 0,
    waiting: 2,
    called: 0,
    serving: 0,
    served: 1,
    noShows: 0,
    cancelled: 0,
    nowServing: 1,
  },
};

const heldUntil = () => new Date(Date.now() + 14 * 60_000 + 30_000).toISOString();

const pendingPayment = (): TokenPayment => ({
  paymentId: PAYMENT,
  status: 'pending',
  amountMinor: 2500,
  currency: 'GBP',
  refundStatus: null,
  refundedMinor: 0,
  holdExpiresAt: heldUntil(),
  checkoutUrl: null,
});

const pending = (): QueueToken => ({
  id: TOKEN,
  sessionId: SESSION,
  queueId: QUEUE,
  number: 4,
  displayNumber: 'P-004',
  kind: 'walk_in',
  status: 'pending_payment',
  serviceId: null,
  slotNo: null,
  slotStartsAt: null,
  visitorName: 'Vera Visitor',
  visitorEmail: 'vera@example.com',
  visitorPhone: null,
  priority: 0,
  notes: '',
  joinedAt: '2026-03-30T08:10:00.000+00:00',
  calledAt: null,
  calledBy: null,
  calledByMe: false,
  completedAt: null,
  cancelledAt: null,
  cancelReason: null,
  serviceSeconds: null,
  position: null,
  estimatedWaitMinutes: null,
  sessionStatus: 'open',
  sessionNotes: '',
  payment: pendingPayment(),
  statusUrl: 'http://localhost/visit/pending',
  companyName: 'Harbourview Health Centre',
  queueName: 'General practice',
  counter: null,
  answers: [],
  changeUntil: null,
});

const paidToken = (payment: Partial<TokenPayment> = {}): QueueToken => ({
  ...pending(),
  status: 'waiting',
  position: 3,
  estimatedWaitMinutes: 12,
  payment: { ...pendingPayment(), status: 'paid', ...payment },
});

const payment = (over: Partial<Payment> = {}): Payment => ({
  id: PAYMENT,
  companyId: COMPANY,
  companyName: 'Harbourview Health Centre',
  kind: 'visit',
  status: 'pending',
  provider: 'sandbox',
  listAmountMinor: 2500,
  amountMinor: 2500,
  currency: 'GBP',
  promotionCode: null,
  failureReason: null,
  payerEmail: 'vera@example.com',
  checkoutUrl: CHECKOUT_URL,
  expiresAt: heldUntil(),
  paidAt: null,
  refundStatus: null,
  refundedMinor: 0,
  refundReason: null,
  token: {
    id: TOKEN,
    sessionId: SESSION,
    queueId: QUEUE,
    queueName: queue.name,
    displayNumber: 'P-004',
    status: 'pending_payment',
    cancelReason: null,
  },
  plan: null,
  createdAt: '2026-03-30T08:10:00.000+00:00',
  updatedAt: '2026-03-30T08:10:00.000+00:00',
  ...over,
});

const paymentToken = payment().token as NonNullable<Payment['token']>;

const userData: UserData = {
  userId: '1b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f26',
  email: 'vera@example.com',
  phone: null,
  displayName: 'Vera Visitor',
  avatarUrl: null,
  timezone: null,
  subscribeId: 'sub-vera',
  companies: [],
};

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

type Handler = (url: string, init?: RequestInit) => Response | undefined;
const fetchMock = vi.fn<typeof fetch>();

function serve(myTokens: () => QueueToken[], override?: Handler) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const special = override?.(url, init);
    if (special) return special;
    if (url.startsWith('/api/queues/by-code/PAIDGP')) return json({ data: queue });
    if (url === `/api/company/queues/${QUEUE}`) return json({ data: queue });
    if (url === '/api/queues/sessions/query') return json({ data: [session] });
    if (url === '/api/queues/sessions/tokens-query') return json({ data: myTokens() });
    if (url.startsWith('/api/user/user-data')) return json({ data: userData });
    return json({ error: { code: 'not_found', message: `No stub for ${method} ${url}` } }, 404);
  });
}

const calls = (path: string) => fetchMock.mock.calls.filter(([input]) => String(input) === path);
const bodyOf = (path: string) => {
  const call = calls(path).at(-1);
  return call?.[1]?.body ? JSON.parse(String(call[1].body)) : undefined;
};

function renderAt(
  path: string,
  element: React.ReactElement,
  initial: string,
  queryClient = new QueryClient(),
) {
  const router = createMemoryRouter([{ path, element }], { initialEntries: [initial] });
  renderWithProviders(<RouterProvider router={router} />, queryClient);
}

const signIn = () =>
  setAuthSession({
    accessToken: 'access-token',
    user: { id: userData.userId, email: 'vera@example.com' },
  });

describe('paying for a visit', { timeout: 30_000 }, () => {
  const leave = vi.spyOn(leaveApp, 'to').mockImplementation(() => {});
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    signIn();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    leave.mockClear();
    setAuthSession(null);
  });

  it('shows the price and the hold, takes the token, then pays with a promotion code at the checkout', async () => {
    let mine: QueueToken[] = [];
    serve(
      () => mine,
      (url, init) => {
        if (url === '/api/queues/sessions/tokens' && init?.method === 'POST') {
          mine = [pending()];
          return json({ data: pending() });
        }
        if (url === '/api/payment-gateway/payment') {
          return json(
            { data: { paymentId: PAYMENT, checkoutUrl: CHECKOUT_URL, status: 'pending' } },
            201,
          );
        }
        return undefined;
      },
    );
    const user = userEvent.setup();
    renderAt('/join', <JoinPage />, '/join?queue=PAIDGP');

    expect(await screen.findByTestId('queue-price')).toHaveTextContent('Price: £25.00');
    expect(screen.getByText(/held for you for 15 minutes while you pay/)).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: /^Take a token/ }));

    const panel = await screen.findByRole('region', { name: 'Payment' });
    expect(screen.getByText('Awaiting payment')).toBeInTheDocument();
    expect(within(panel).getByTestId('pay-amount')).toHaveTextContent('£25.00');
    expect(within(panel).getByTestId('pay-hold')).toHaveTextContent(/held for 14:[23]\d more/);
    expect(leave).not.toHaveBeenCalled();

    await user.click(within(panel).getByRole('button', { name: 'Have a promotion code?' }));
    await user.type(within(panel).getByRole('textbox', { name: /Promotion code/ }), 'SPRING10');
    await user.click(within(panel).getByRole('button', { name: 'Pay £25.00' }));

    await waitFor(() => expect(leave).toHaveBeenCalledWith(CHECKOUT_URL));
    expect(bodyOf('/api/payment-gateway/payment')).toEqual({
      tokenId: TOKEN,
      promotionCode: 'SPRING10',
    });
    expect(calls('/api/payment-gateway/payment')).toHaveLength(1);
  });

  it('says a refused promotion code in place and stays on the page', async () => {
    serve(
      () => [pending()],
      (url) =>
        url === '/api/payment-gateway/payment'
          ? json({ error: { code: 'promotion_invalid', message: 'Unknown promotion.' } }, 422)
          : undefined,
    );
    const user = userEvent.setup();
    renderAt('/join', <JoinPage />, '/join?queue=PAIDGP');
    const panel = await screen.findByRole('region', { name: 'Payment' });
    await user.click(within(panel).getByRole('button', { name: 'Have a promotion code?' }));
    await user.type(within(panel).getByRole('textbox', { name: /Promotion code/ }), 'NOPE');
    await user.click(within(panel).getByRole('button', { name: 'Pay £25.00' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'This promotion code cannot be used here',
    );
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(leave).not.toHaveBeenCalled();
  });

  it('says when payments are unavailable, and the place stays held', async () => {
    serve(
      () => [pending()],
      (url) =>
        url === '/api/payment-gateway/payment'
          ? json({ error: { code: 'payments_unavailable', message: 'Unavailable.' } }, 503)
          : undefined,
    );
    const user = userEvent.setup();
    renderAt('/join', <JoinPage />, '/join?queue=PAIDGP');
    const panel = await screen.findByRole('region', { name: 'Payment' });
    await user.click(within(panel).getByRole('button', { name: 'Pay £25.00' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'Payments are not available right now',
    );
    expect(bodyOf('/api/payment-gateway/payment')).toEqual({ tokenId: TOKEN });
    expect(leave).not.toHaveBeenCalled();
  });

  it('in My sessions: Pay now for a held token, the refund state of paid ones', async () => {
    const REFUNDED = '1b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f31';
    const PARTIAL = '1b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f32';
    const PENDING_REFUND = '1b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f33';
    const cancelled = { status: 'cancelled' as const, position: null };
    serve(
      () => [
        pending(),
        {
          ...paidToken({ refundStatus: 'succeeded', refundedMinor: 2500 }),
          ...cancelled,
          id: REFUNDED,
        },
        {
          ...paidToken({ refundStatus: 'succeeded', refundedMinor: 1250 }),
          ...cancelled,
          id: PARTIAL,
        },
        { ...paidToken({ refundStatus: 'pending' }), ...cancelled, id: PENDING_REFUND },
      ],
      (url) =>
        url === '/api/payment-gateway/payment'
          ? json({ data: { paymentId: PAYMENT, checkoutUrl: CHECKOUT_URL, status: 'pending' } })
          : undefined,
    );
    const user = userEvent.setup();
    renderAt('/admin/my-sessions', <MySessionsPage />, '/admin/my-sessions');

    const held = await screen.findByTestId(`token-${TOKEN}`);
    expect(within(held).getByText('Awaiting payment')).toBeInTheDocument();
    expect(within(held).getByTestId('pay-hold')).toHaveTextContent(/held for 14:\d\d more/);
    expect(screen.getByTestId(`token-${REFUNDED}`)).toHaveTextContent('Refunded £25.00');
    expect(screen.getByTestId(`token-${PARTIAL}`)).toHaveTextContent('Refunded £12.50 of £25.00');
    expect(screen.getByTestId(`token-${PENDING_REFUND}`)).toHaveTextContent('Refund pending');

    await user.click(within(held).getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith(CHECKOUT_URL));
  });

  it("the cancel dialog of a paid booking says what the queue's rule refunds", async () => {
    const inTwoDays = new Date(Date.now() + 48 * 3_600_000).toISOString();
    const booking = {
      ...paidToken(),
      kind: 'booking' as const,
      status: 'booked' as const,
      position: null,
      slotStartsAt: inTwoDays,
    };
    serve(() => [booking]);
    const user = userEvent.setup();
    renderAt('/admin/my-sessions', <MySessionsPage />, '/admin/my-sessions');
    const card = await screen.findByTestId(`token-${TOKEN}`);
    expect(within(card).getByText('Paid £25.00')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Cancel token P-004' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel token P-004?' });
    expect(await within(dialog).findByTestId('refund-rule')).toHaveTextContent(
      'You get 50% back: £12.50.',
    );
  });
});

describe('the refund rule as the cancel dialog words it', () => {
  const rule = { cancelNoticeMinutes: 60, refundPercent: 50 };
  const now = Date.parse('2026-03-30T08:00:00Z');
  const booking = (startsAt: string) => ({
    ...paidToken(),
    kind: 'booking' as const,
    slotStartsAt: startsAt,
  });

  it('refunds the share before the notice, nothing after, and says the rule for walk-ins', () => {
    expect(refundOnCancel(booking('2026-03-30T09:00:00Z'), rule, now)).toMatchObject({
      kind: 'amount',
      amountMinor: 1250,
    });
    expect(refundOnCancel(booking('2026-03-30T08:59:00Z'), rule, now)).toEqual({
      kind: 'late',
      noticeMinutes: 60,
    });
    expect(refundOnCancel(paidToken(), rule, now)).toMatchObject({ kind: 'rule', percent: 50 });
    expect(refundOnCancel(pending(), rule, now)).toEqual({ kind: 'unpaid' });
    expect(refundOnCancel(paidToken(), undefined, now)).toEqual({ kind: 'unknown' });
    expect(refundOnCancel(paidToken(), { ...rule, refundPercent: 0 }, now)).toEqual({
      kind: 'none',
    });
    expect(
      refundOnCancel(paidToken({ refundedMinor: 2500, refundStatus: 'succeeded' }), rule, now),
    ).toEqual({ kind: 'none' });
  });
});

describe('the payment-success page', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    setAuthSession(null);
  });

  const open = (queryClient?: QueryClient) =>
    renderAt(
      '/payment-success',
      <PaymentSuccessPage />,
      `/payment-success?paymentId=${PAYMENT}`,
      queryClient,
    );

  it('asks a signed-out visitor to sign in, and reads nothing', async () => {
    serve(() => []);
    const user = userEvent.setup();
    open();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Sign in to see your payment' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('dialog', { name: 'Sign in' })).toBeInTheDocument();
    expect(calls(`/api/payments/${PAYMENT}`)).toHaveLength(0);
  });

  it('waits for the webhook, then shows the live token and the receipt when the token event arrives', async () => {
    signIn();
    // No fallback polls here: only the token's live event may move the page on.
    const polls = pendingPolling.maxPolls;
    pendingPolling.maxPolls = 0;
    onTestFinished(() => {
      pendingPolling.maxPolls = polls;
    });
    let paid = false;
    serve(
      () => [paid ? paidToken() : pending()],
      (url) =>
        url === `/api/payments/${PAYMENT}`
          ? json({
              data: paid
                ? payment({
                    status: 'paid',
                    paidAt: '2026-03-30T08:12:00.000+00:00',
                    promotionCode: 'SPRING10',
                    listAmountMinor: 2800,
                    token: { ...paymentToken, status: 'waiting' },
                  })
                : payment(),
            })
          : undefined,
    );
    const queryClient = new QueryClient();
    open(queryClient);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Confirming your payment…' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/This page updates by itself/)).toBeInTheDocument();

    // The webhook arrives on the server: the token joins the line and its session's topic
    // says so; the page refetches the tokens, sees the change, and asks for the payment again.
    const live = fakeRealtime(realtime);
    const topic = `/topic/session/${SESSION}`;
    await waitFor(() => expect(live.topics).toContain(topic), { timeout: 5_000 });
    paid = true;
    act(() =>
      live.send(topic, {
        type: 'session.state',
        sessionId: SESSION,
        status: 'open',
        notes: '',
        nowServing: null,
        waitingCount: 3,
        averageServiceSeconds: 240,
        at: '2026-03-30T08:12:00.000+00:00',
      }),
    );
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'Payment received' },
        { timeout: 5_000 },
      ),
    ).toBeInTheDocument();
    expect(screen.getByTestId('token-number')).toHaveTextContent('P-004');
    expect(screen.getByTestId('token-position')).toHaveTextContent('3');
    const receipt = screen.getByTestId('receipt');
    expect(receipt).toHaveTextContent('Harbourview Health Centre');
    expect(receipt).toHaveTextContent('Private GP consultation, token P-004');
    expect(receipt).toHaveTextContent('£28.00');
    expect(receipt).toHaveTextContent('SPRING10');
    expect(receipt).toHaveTextContent('£25.00');
    // Two reads of the payment: the first, and the one the token's change asked for.
    expect(calls(`/api/payments/${PAYMENT}`)).toHaveLength(2);
    // No "taking longer" notice while the live events work.
    expect(screen.queryByText(/taking longer than usual/)).not.toBeInTheDocument();
  });

  it('says a declined payment plainly, holds nothing, and leads back to the queue', async () => {
    signIn();
    serve(
      () => [
        { ...pending(), status: 'cancelled', payment: { ...pendingPayment(), status: 'failed' } },
      ],
      (url) =>
        url === `/api/payments/${PAYMENT}`
          ? json({
              data: payment({
                status: 'failed',
                failureReason: 'card_declined',
                token: { ...paymentToken, status: 'cancelled', cancelReason: 'payment_failed' },
              }),
            })
          : undefined,
    );
    open();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your payment did not go through' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('failure-reason')).toHaveTextContent('Your card was declined.');
    expect(screen.getByText(/Nothing was charged and no place is held/)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Back to the queue' })).toHaveAttribute(
        'href',
        '/join?queue=PAIDGP',
      ),
    );
    expect(screen.queryByRole('region', { name: 'Payment' })).not.toBeInTheDocument();
  });

  it.each([
    ['cancelled', 'You left the checkout'],
    ['expired', 'The time to pay ran out'],
  ] as const)('explains a %s payment', async (status, heading) => {
    signIn();
    serve(
      () => [],
      (url) =>
        url === `/api/payments/${PAYMENT}` ? json({ data: payment({ status }) }) : undefined,
    );
    open();
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(screen.getByText(/Nothing was charged/)).toBeInTheDocument();
  });

  it("says so when the payment is not the visitor's, without a pointless retry", async () => {
    signIn();
    serve(
      () => [],
      (url) =>
        url === `/api/payments/${PAYMENT}`
          ? json({ error: { code: 'payment_not_found', message: 'Not found.' } }, 404)
          : undefined,
    );
    open();
    expect(await screen.findByText(/This payment was not found/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('backs off while pending: 1, 2, 4, 8 s, then every 15 s', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map(pendingPolling.delay)).toEqual([
      1000, 2000, 4000, 8000, 15_000, 15_000, 15_000,
    ]);
  });
});
