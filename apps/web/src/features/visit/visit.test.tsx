import { QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Queue } from '@upnext/contract/queues';
import type { Session } from '@upnext/contract/sessions';
import type { QueueToken, SessionBoard } from '@upnext/contract/tokens';
import type { UserData } from '@upnext/contract/users';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Component as MySessionsPage } from '../../app/routes/admin/MySessionsPage.tsx';
import { Component as JoinPage } from '../../app/routes/JoinPage.tsx';
import { setAuthSession } from '../../lib/auth-session.ts';
import { realtime } from '../../lib/stomp-client.ts';
import { fakeRealtime } from '../../test/realtime.ts';
import { renderWithProviders } from '../../test/render.tsx';

vi.mock('../../lib/stomp-client.ts', async (original) =>
  (await import('../../test/realtime.ts')).mockStompClient(await original()),
);

const QUEUE = '0b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f21';
const COMPANY = '0b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f22';
const SESSION = '0b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f23';
const TOKEN = '0b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f24';
const OTHER = '0b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f25';

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
  name: 'General practice',
  description: '',
  joinCode: 'HARBOUR',
  tokenPrefix: 'A',
  mode: 'walk_in',
  online: false,
  visibility: 'public',
  priceMinor: null,
  currency: null,
  tokensPerVisitor: 1,
  turnApproachingThreshold: 3,
  cancelNoticeMinutes: 0,
  refundPercent: 100,
  changeCutoffMinutes: 0,
  intakeQuestions: [],
  status: 'active',
  createdAt: '2026-03-01T08:00:00.000Z',
  updatedAt: '2026-03-01T08:00:00.000Z',
};

const session: Session = {
  id: SESSION,
  queueId: QUEUE,
  queueName: 'General practice',
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

const token: QueueToken = {
  id: TOKEN,
  sessionId: SESSION,
  queueId: QUEUE,
  number: 4,
  displayNumber: 'A-004',
  kind: 'walk_in',
  status: 'waiting',
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
  position: 3,
  estimatedWaitMinutes: 12,
  sessionStatus: 'open',
  sessionNotes: '',
  payment: null,
  statusUrl: 'http://localhost/visit/mine',
  companyName: 'Harbourview Health Centre',
  queueName: 'General practice',
  counter: null,
  answers: [],
  changeUntil: null,
};

const userData: UserData = {
  userId: '0b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f26',
  email: 'vera@example.com',
  phone: null,
  displayName: 'Vera Visitor',
  avatarUrl: null,
  timezone: null,
  subscribeId: 'sub-vera',
  companies: [],
};

const board: SessionBoard = {
  sessionId: SESSION,
  companyName: 'Harbourview Health Centre',
  country: 'GB',
  queueId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  queueName: 'General practice',
  joinCode: 'HARBOUR',
  counter: null,
  status: 'open',
  notes: '',
  nowServing: 'A-001',
  nowServingCounter: null,
  nowServingAt: '2026-03-30T08:15:00.000Z',
  recentlyCalled: [],
  waiting: 2,
  averageServiceSeconds: 240,
};

const at = '2026-03-30T08:20:00.000+00:00';

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

type Handler = (url: string, init?: RequestInit) => Response | undefined;
const fetchMock = vi.fn<typeof fetch>();

/** Answers by method and path; `override` goes first (refusals, changed states). */
function serve(myTokens: () => QueueToken[], override?: Handler) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const special = override?.(url, init);
    if (special) return special;
    if (url.startsWith('/api/queues/by-code/HARBOUR')) return json({ data: queue });
    if (url === '/api/queues/sessions/query') return json({ data: [session] });
    if (url === '/api/queues/sessions/tokens' && method === 'POST') return json({ data: token });
    if (url === '/api/queues/sessions/tokens-query') return json({ data: myTokens() });
    if (url.startsWith('/api/user/user-data')) return json({ data: userData });
    if (url.startsWith('/api/queues/sessions?')) return json({ data: [] });
    if (url === `/api/queues/sessions/${SESSION}/board`) return json({ data: board });
    return json({ error: { code: 'not_found', message: `No stub for ${method} ${url}` } }, 404);
  });
}

function renderAt(
  path: string,
  element: React.ReactElement,
  initial: string,
  queryClient = new QueryClient(),
) {
  const router = createMemoryRouter([{ path, element }], { initialEntries: [initial] });
  renderWithProviders(<RouterProvider router={router} />, queryClient);
}

function bodyOf(url: string): unknown {
  const call = fetchMock.mock.calls.find(([input]) => String(input) === url);
  return call?.[1]?.body ? JSON.parse(String(call[1].body)) : undefined;
}

describe('the visitor journey', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    setAuthSession({
      accessToken: 'access-token',
      user: { id: userData.userId, email: 'vera@example.com' },
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    setAuthSession(null);
  });

  it('finds the queue by code, lists its sessions and shows the taken token live', async () => {
    let mine: QueueToken[] = [];
    serve(
      () => mine,
      (url, init) => {
        if (url !== '/api/queues/sessions/tokens' || init?.method !== 'POST') return undefined;
        mine = [token];
        return json({ data: token });
      },
    );
    const user = userEvent.setup();
    const queryClient = new QueryClient();
    renderAt('/join', <JoinPage />, '/join?queue=HARBOUR', queryClient);

    expect(await screen.findByRole('heading', { name: 'General practice' })).toBeInTheDocument();
    expect(screen.getByText('Harbourview Health Centre')).toBeInTheDocument();
    expect(await screen.findByText('2 people waiting')).toBeInTheDocument();
    expect(screen.getByText('Open')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^Take a token/ }));

    expect(await screen.findByTestId('token-number')).toHaveTextContent('A-004');
    expect(bodyOf('/api/queues/sessions/tokens')).toEqual({ sessionId: SESSION });
    expect(await screen.findByTestId('token-position')).toHaveTextContent('3');
    expect(screen.getByTestId('token-wait')).toHaveTextContent('about 12 minutes');
    expect(bodyOf('/api/queues/sessions/query')).toMatchObject({
      queueId: QUEUE,
      status: ['scheduled', 'open', 'paused'],
    });
    expect(bodyOf('/api/queues/sessions/tokens-query')).toEqual({ mine: true });
    expect(screen.queryByText('It is your turn')).not.toBeInTheDocument();

    // The visitor's own topic moves them up, then calls them: no request, no poll needed.
    const live = fakeRealtime(realtime);
    await waitFor(() => expect(live.topics).toContain('/topic/user/sub-vera'), { timeout: 5_000 });
    await waitFor(
      () => expect(queryClient.isFetching({ queryKey: ['visit', 'my-tokens'] })).toBe(0),
      { timeout: 5_000 },
    );
    const tokenQueries = () =>
      fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/tokens-query')).length;
    const requests = tokenQueries();
    const ref = { tokenId: TOKEN, sessionId: SESSION, label: 'A-004', at };
    act(() =>
      live.send('/topic/user/sub-vera', {
        type: 'token.position_changed',
        ...ref,
        position: 1,
        estimatedWaitSeconds: 200,
      }),
    );
    await waitFor(() => expect(screen.getByTestId('token-position')).toHaveTextContent('1'), {
      timeout: 5_000,
    });
    expect(screen.getByTestId('token-wait')).toHaveTextContent('about 4 minutes');
    act(() =>
      live.send('/topic/user/sub-vera', { type: 'token.called', ...ref, serviceArea: null }),
    );
    expect(await screen.findByText('It is your turn')).toBeInTheDocument();
    expect(screen.getByText('It is your turn').closest('[aria-live="assertive"]')).not.toBeNull();
    expect(tokenQueries()).toBe(requests); // applied from the events, not refetched
  });

  it('takes one token on a double-click: one request with its idempotency key, no error', async () => {
    let mine: QueueToken[] = [];
    serve(
      () => mine,
      (url, init) => {
        if (url !== '/api/queues/sessions/tokens' || init?.method !== 'POST') return undefined;
        mine = [token];
        return json({ data: token });
      },
    );
    const user = userEvent.setup();
    renderAt('/join', <JoinPage />, '/join?code=HARBOUR');
    await user.dblClick(await screen.findByRole('button', { name: /^Take a token/ }));
    expect(await screen.findByTestId('token-number')).toHaveTextContent('A-004');
    const takes = fetchMock.mock.calls.filter(
      ([url, init]) => String(url) === '/api/queues/sessions/tokens' && init?.method === 'POST',
    );
    expect(takes).toHaveLength(1);
    const key = new Headers(takes[0]?.[1]?.headers).get('Idempotency-Key');
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("after a reload shows the visitor's token in this queue, never Take a token for its session", async () => {
    serve(() => [token]);
    const user = userEvent.setup();
    renderAt('/join', <JoinPage />, '/join?code=HARBOUR');
    expect(await screen.findByTestId('token-number')).toHaveTextContent('A-004');
    expect(screen.queryByRole('button', { name: /^Take a token/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back to sessions' }));
    expect(await screen.findByText('2 people waiting')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Take a token/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Show your token A-004/ }));
    expect(await screen.findByTestId('token-number')).toHaveTextContent('A-004');
  });

  it('says at once when the session of the token is paused, with the notes for visitors', async () => {
    let session: Pick<QueueToken, 'sessionStatus' | 'sessionNotes'> = {
      sessionStatus: 'open',
      sessionNotes: '',
    };
    serve(() => [{ ...token, ...session }]);
    renderAt('/join', <JoinPage />, '/join?code=HARBOUR');
    expect(await screen.findByTestId('token-number')).toHaveTextContent('A-004');
    const live = fakeRealtime(realtime);
    const topic = `/topic/session/${SESSION}`;
    await waitFor(() => expect(live.topics).toContain(topic), { timeout: 5_000 });
    const state = {
      type: 'session.state',
      sessionId: SESSION,
      nowServing: null,
      waitingCount: 2,
      averageServiceSeconds: 240,
      at,
    };
    // The server has paused it (a refetch answers so), then tells the session's topic.
    session = { sessionStatus: 'paused', sessionNotes: 'Back at 11:15' };
    act(() => live.send(topic, { ...state, status: 'paused', notes: 'Back at 11:15' }));
    expect(await screen.findByText('The session is paused')).toBeInTheDocument();
    expect(screen.getByTestId('session-notes')).toHaveTextContent('Back at 11:15');
    session = { sessionStatus: 'open', sessionNotes: '' };
    act(() => live.send(topic, { ...state, status: 'open', notes: '' }));
    await waitFor(() =>
      expect(screen.queryByText('The session is paused')).not.toBeInTheDocument(),
    );
    expect(screen.queryByTestId('session-notes')).not.toBeInTheDocument();
  });

  it('shows a full session refusal in plain words and stays on the sessions', async () => {
    serve(
      () => [],
      (url, init) =>
        url === '/api/queues/sessions/tokens' && init?.method === 'POST'
          ? json({ error: { code: 'session_full', message: 'The session is full.' } }, 409)
          : undefined,
    );
    const user = userEvent.setup();
    renderAt('/join', <JoinPage />, '/join?code=HARBOUR');
    await user.click(await screen.findByRole('button', { name: /^Take a token/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This session is full: no more tokens can be taken. Try another session.',
    );
    expect(screen.getAllByRole('alert')).toHaveLength(1); // once: no notice as well
    expect(screen.queryByText('Something went wrong. Please try again.')).not.toBeInTheDocument();
    expect(screen.queryByTestId('token-number')).not.toBeInTheDocument();
  });

  it('says once that a join code is unknown: no error notice, no pointless retry', async () => {
    serve(
      () => [],
      (url) =>
        url.startsWith('/api/queues/by-code/')
          ? json({ error: { code: 'not_found', message: 'Queue not found.' } }, 404)
          : undefined,
    );
    renderAt('/join', <JoinPage />, '/join?queue=NOPE');
    expect(
      await screen.findByText('No queue has this join code. Check the code and try again.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong. Please try again.')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Join code/ })).toHaveValue('NOPE');
  });

  it('opens the sign-in dialog instead of taking a token for a visitor who is not signed in', async () => {
    setAuthSession(null);
    serve(() => []);
    const user = userEvent.setup();
    renderAt('/join', <JoinPage />, '/join?code=HARBOUR');
    await user.click(await screen.findByRole('button', { name: /^Take a token/ }));
    // The dialog's code (and the auth client) is downloaded when it first opens.
    expect(
      await screen.findByRole('dialog', { name: 'Sign in' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/your token is taken as soon as you are signed in/),
    ).toBeInTheDocument();
    expect(bodyOf('/api/queues/sessions/tokens')).toBeUndefined();
  });

  it('books a chosen time slot and confirms it with its time', async () => {
    const SERVICE = '0b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f27';
    const hour = 3_600_000;
    const slot = (slotNo: number, startTime: string, bookable: boolean, inHours: number) => ({
      serviceId: SERVICE,
      slotNo,
      startTime,
      endTime: startTime.replace(':00', ':15'),
      startsAt: new Date(Date.now() + inHours * hour).toISOString(),
      endsAt: new Date(Date.now() + inHours * hour + hour / 4).toISOString(),
      capacity: 1,
      bookedCount: bookable ? 0 : 1,
      status: 'open',
      bookable,
    });
    const booking: QueueToken = {
      ...token,
      kind: 'booking',
      status: 'booked',
      serviceId: SERVICE,
      slotNo: 2,
      slotStartsAt: '2026-03-30T09:00:00.000+00:00',
      position: null,
    };
    let mine: QueueToken[] = [];
    serve(
      () => mine,
      (url, init) => {
        if (url.startsWith('/api/queues/by-code/'))
          return json({
            data: {
              ...queue,
              mode: 'slots',
              changeCutoffMinutes: 1440,
              intakeQuestions: [
                {
                  id: 'reason',
                  label: 'What brings you in?',
                  helpText: '',
                  kind: 'text',
                  options: [],
                  required: true,
                },
                {
                  id: 'fasting',
                  label: 'Have you fasted?',
                  helpText: '',
                  kind: 'choice',
                  options: ['Yes', 'No'],
                  required: false,
                },
              ],
            },
          });
        if (url === `/api/queues/sessions/${SESSION}/services`) {
          return json({
            data: [
              {
                id: SERVICE,
                sessionId: SESSION,
                serviceTypeId: SERVICE,
                serviceTypeName: 'Blood test',
                slotMinutes: 15,
                capacityPerSlot: 1,
                slotCount: 2,
              },
            ],
          });
        }
        if (url === `/api/queues/sessions/services/${SERVICE}/slots`) {
          return json({
            data: [
              slot(3, '08:00', true, -1),
              slot(1, '09:00', false, 1),
              slot(2, '10:00', true, 2),
            ],
          });
        }
        if (url === '/api/queues/sessions/slots/tokens' && init?.method === 'POST') {
          mine = [booking];
          return json({ data: booking });
        }
        return undefined;
      },
    );
    const user = userEvent.setup();
    renderAt('/join', <JoinPage />, '/join?code=HARBOUR');
    expect(await screen.findByRole('heading', { name: 'General practice' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Take a token/ })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: /^Choose a time/ }));
    expect(await screen.findByRole('button', { name: '09:00, full' })).toBeDisabled();
    // A slot that has started is not offered.
    expect(screen.queryByRole('button', { name: /08:00/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Book 10:00' }));
    // The confirmation step: what and when, the rule, the questions; nothing booked yet.
    const review = await screen.findByRole('region', { name: 'Review and confirm' });
    expect(within(review).getByText('Blood test')).toBeInTheDocument();
    expect(within(review).getByText('10:00–10:15 (Europe/London)')).toBeInTheDocument();
    expect(within(review).getByTestId('change-rule')).toHaveTextContent(
      'You can cancel or reschedule up to 1 day before your time.',
    );
    await user.click(within(review).getByRole('button', { name: 'Confirm booking' }));
    expect(await within(review).findByText('Please answer this question.')).toBeInTheDocument();
    expect(within(review).getByRole('textbox', { name: /What brings you in/ })).toHaveFocus();
    expect(bodyOf('/api/queues/sessions/slots/tokens')).toBeUndefined();
    await user.type(
      within(review).getByRole('textbox', { name: /What brings you in/ }),
      'Check-up',
    );
    await user.click(within(review).getByRole('radio', { name: 'No' }));
    await user.click(within(review).getByRole('button', { name: 'Confirm booking' }));
    expect(await screen.findByTestId('token-number')).toHaveTextContent('A-004');
    expect(bodyOf('/api/queues/sessions/slots/tokens')).toEqual({
      serviceId: SERVICE,
      slotNo: 2,
      answers: [
        { questionId: 'reason', value: 'Check-up' },
        { questionId: 'fasting', value: 'No' },
      ],
    });
    expect(screen.getByText(/^Your time:/)).toBeInTheDocument();
    expect(screen.getByText('Booked')).toBeInTheDocument();
  });

  it('asks the queue questions before a walk-in token, on the confirmation step', async () => {
    let mine: QueueToken[] = [];
    serve(
      () => mine,
      (url, init) => {
        if (url.startsWith('/api/queues/by-code/'))
          return json({
            data: {
              ...queue,
              intakeQuestions: [
                {
                  id: 'errand',
                  label: 'What do you need today?',
                  helpText: '',
                  kind: 'choice',
                  options: ['New passport', 'Renewal'],
                  required: true,
                },
              ],
            },
          });
        if (url !== '/api/queues/sessions/tokens' || init?.method !== 'POST') return undefined;
        mine = [token];
        return json({ data: token });
      },
    );
    const user = userEvent.setup();
    renderAt('/join', <JoinPage />, '/join?code=HARBOUR');
    await user.click(await screen.findByRole('button', { name: /^Take a token/ }));
    const review = await screen.findByRole('region', { name: 'Review and confirm' });
    expect(within(review).getByRole('heading', { name: 'Review and confirm' })).toHaveFocus();
    // A walk-in has no slot and no cancellation rule of its own.
    expect(within(review).getByText('A place in the line')).toBeInTheDocument();
    expect(within(review).queryByTestId('change-rule')).not.toBeInTheDocument();
    await user.click(within(review).getByRole('button', { name: 'Take my token' }));
    expect(await within(review).findByText('Please answer this question.')).toBeInTheDocument();
    expect(within(review).getByRole('radio', { name: 'New passport' })).toHaveFocus();
    expect(bodyOf('/api/queues/sessions/tokens')).toBeUndefined();
    await user.click(within(review).getByRole('radio', { name: 'Renewal' }));
    await user.click(within(review).getByRole('button', { name: 'Take my token' }));
    expect(await screen.findByTestId('token-number')).toHaveTextContent('A-004');
    expect(bodyOf('/api/queues/sessions/tokens')).toEqual({
      sessionId: SESSION,
      answers: [{ questionId: 'errand', value: 'Renewal' }],
    });
  });

  it('offers to ask to join a private queue and sends the request for its id', async () => {
    serve(
      () => [],
      (url, init) => {
        if (url.startsWith('/api/queues/by-code/')) {
          return json(
            {
              error: {
                code: 'join_request_required',
                message: 'This queue is private: ask to join it first.',
                details: {
                  queueId: QUEUE,
                  queueName: 'General practice',
                  companyName: 'Harbourview',
                },
              },
            },
            403,
          );
        }
        if (url === '/api/queues/requests' && init?.method === 'POST') return json({ data: {} });
        return undefined;
      },
    );
    const user = userEvent.setup();
    renderAt('/join', <JoinPage />, '/join?code=HARBOUR');
    expect(await screen.findByText('This queue is private')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Ask to join' }));
    expect(await screen.findByText(/Your request was sent/)).toBeInTheDocument();
    expect(bodyOf('/api/queues/requests')).toEqual({ queueId: QUEUE });
  });

  it('asks for a join code when the link has none', async () => {
    serve(() => []);
    const user = userEvent.setup();
    renderAt('/join', <JoinPage />, '/join');
    await user.type(screen.getByRole('textbox', { name: /Join code/ }), 'HARBOUR');
    await user.click(screen.getByRole('button', { name: 'Find the queue' }));
    expect(await screen.findByRole('heading', { name: 'General practice' })).toBeInTheDocument();
  });
});

describe('my sessions', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    setAuthSession({
      accessToken: 'access-token',
      user: { id: userData.userId, email: 'vera@example.com' },
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    setAuthSession(null);
  });

  it('lists the tokens, highlights the one from the link and cancels one after confirming', async () => {
    let cancelled = false;
    const other: QueueToken = { ...token, id: OTHER, displayNumber: 'A-009', position: 5 };
    serve(
      () => [{ ...token, ...(cancelled ? { status: 'cancelled', position: null } : {}) }, other],
      (url) => {
        if (url !== '/api/queues/sessions/tokens-cancel') return undefined;
        cancelled = true;
        return json({ data: { ...token, status: 'cancelled', position: null } });
      },
    );
    const user = userEvent.setup();
    renderAt('/admin/my-sessions', <MySessionsPage />, `/admin/my-sessions?token=${OTHER}`);

    const first = await screen.findByTestId(`token-${TOKEN}`);
    expect(within(first).getByText('A-004')).toBeInTheDocument();
    expect(within(first).getByTestId('token-position')).toHaveTextContent('3');
    expect(screen.getByTestId(`token-${OTHER}`)).toHaveAttribute('aria-current', 'true');
    expect(screen.getByText('From your notification')).toBeInTheDocument();

    await user.click(within(first).getByRole('button', { name: 'Cancel token A-004' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel token A-004?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the token' }));

    expect(bodyOf('/api/queues/sessions/tokens-cancel')).toEqual({ tokenId: TOKEN });
    expect(await screen.findByText('Token A-004 was cancelled.')).toBeInTheDocument();
    const earlier = await screen.findByRole('region', { name: 'Earlier' });
    expect(await within(earlier).findByText('Cancelled')).toBeInTheDocument();
    expect(screen.queryByText('Sessions assigned to me today')).not.toBeInTheDocument();
  });

  it("shows staff today's assigned sessions with a link to the live session", async () => {
    serve(
      () => [],
      (url) => {
        if (url.startsWith('/api/user/user-data')) {
          return json({
            data: {
              ...userData,
              companies: [
                {
                  companyId: COMPANY,
                  name: 'Harbourview',
                  slug: 'h',
                  role: 'staff',
                  status: 'active',
                },
              ],
            },
          });
        }
        if (url.startsWith('/api/queues/sessions?date=')) return json({ data: [session] });
        return undefined;
      },
    );
    renderAt('/admin/my-sessions', <MySessionsPage />, '/admin/my-sessions');
    const region = await screen.findByRole('region', { name: 'Sessions assigned to me today' });
    const link = await within(region).findByRole('link', { name: /Open the live session/ });
    expect(link).toHaveAttribute('href', `/admin/live-sessions/all/2026-03-30/${SESSION}`);
    expect(await screen.findByText('Nothing booked yet')).toBeInTheDocument();
  });
});
