import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QueueToken, SessionBoard } from '@upnext/contract/tokens';
import { createMemoryRouter, RouterProvider, useParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Component as LiveSessionPage } from '../../app/routes/admin/LiveSessionPage.tsx';
import { Component as SessionTokensPage } from '../../app/routes/admin/SessionTokensPage.tsx';
import { realtime } from '../../lib/stomp-client.ts';
import { fakeRealtime } from '../../test/realtime.ts';
import { renderWithProviders } from '../../test/render.tsx';

vi.mock('../../lib/stomp-client.ts', async (original) =>
  (await import('../../test/realtime.ts')).mockStompClient(await original()),
);

const STAFF = '5e1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const OTHER_DESK = '6f2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e';
const SESSION = '6f1d2c7a-3b1e-4f4e-9a8c-2d2b6f9e0a11';
const board: SessionBoard = {
  sessionId: SESSION,
  companyName: 'Harbourview Health Centre',
  country: 'GB',
  queueId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  queueName: 'General practice',
  joinCode: 'HARBOUR',
  counter: 'Counter 1',
  status: 'open',
  notes: '',
  nowServing: null,
  nowServingCounter: null,
  nowServingAt: null,
  recentlyCalled: [],
  waiting: 2,
  averageServiceSeconds: 300,
};

function token(overrides: Partial<QueueToken>): QueueToken {
  return {
    id: '0b7c1f8e-2d3a-4c5b-8e9f-1a2b3c4d5e6f',
    sessionId: SESSION,
    queueId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    number: 1,
    displayNumber: 'A-001',
    kind: 'walk_in',
    status: 'waiting',
    serviceId: null,
    slotNo: null,
    slotStartsAt: null,
    visitorName: 'Ada Lovelace',
    visitorEmail: null,
    visitorPhone: null,
    priority: 0,
    notes: '',
    joinedAt: '2026-11-23T09:00:00.000Z',
    calledAt: null,
    calledBy: null,
    calledByMe: false,
    completedAt: null,
    cancelledAt: null,
    cancelReason: null,
    serviceSeconds: null,
    position: 1,
    estimatedWaitMinutes: 0,
    sessionStatus: 'open',
    sessionNotes: '',
    payment: null,
    statusUrl: 'http://localhost/visit/live',
    companyName: 'Harbourview Health Centre',
    queueName: 'General practice',
    counter: null,
    answers: [],
    changeUntil: null,
    ...overrides,
  };
}

const ada = token({});
const grace = token({
  id: '1c8d2f9e-3e4b-4d6c-9f0a-2b3c4d5e6f70',
  number: 2,
  displayNumber: 'A-002',
  visitorName: 'Grace Hopper',
  position: 2,
  estimatedWaitMinutes: 5,
});

type Handler = (body: unknown) => { status: number; body: unknown };
const fetchMock = vi.fn<typeof fetch>();
let handlers: Record<string, Handler>;
let tokens: QueueToken[];

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

beforeEach(() => {
  tokens = [ada, grace];
  handlers = {
    [`GET /api/queues/sessions/${SESSION}/board`]: () => ({ status: 200, body: { data: board } }),
    [`GET /api/company/queues/${ada.queueId}`]: () => ({
      status: 200,
      body: { data: { id: ada.queueId, online: false, intakeQuestions: [] } },
    }),
    'POST /api/queues/sessions/tokens-query': (body) => {
      const statuses = (body as { statuses?: string[] }).statuses;
      const all = tokens;
      return {
        status: 200,
        body: { data: statuses ? all.filter((t) => statuses.includes(t.status)) : all },
      };
    },
    'POST /api/queues/sessions/service-time-query': () => ({
      status: 200,
      body: {
        data: {
          tokens: 0,
          serviceSeconds: { average: null, median: null, p90: null },
          waitSeconds: { average: null, median: null, p90: null },
        },
      },
    }),
  };
  fetchMock.mockImplementation(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    const handler = handlers[key];
    if (!handler) return json(404, { error: { code: 'not_found', message: key } });
    const { status, body } = handler(init?.body ? JSON.parse(String(init.body)) : undefined);
    return json(status, body);
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

function show(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/admin/live-sessions/:subQueueId/:date/:sessionId', element: <LiveSessionPage /> },
      { path: '/admin/session-tokens/:sessionId', element: <SessionTokensPage /> },
      { path: '/admin/meeting/:queueId/:sessionId/:meetingId', element: <MeetingScreenStub /> },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
}

const consolePath = `/admin/live-sessions/all/2026-11-23/${SESSION}`;

function MeetingScreenStub() {
  const { queueId, sessionId, meetingId } = useParams();
  return <p>{`Meeting screen ${queueId}/${sessionId}/${meetingId}`}</p>;
}

describe('the live console', () => {
  it('calls the next visitor and shows the called token in large type', async () => {
    const called = {
      ...ada,
      status: 'called' as const,
      position: null,
      calledAt: '2026-11-23T09:05:00.000Z',
      calledBy: STAFF,
      calledByMe: true,
    };
    handlers['POST /api/queues/sessions/next-token'] = () => {
      tokens = [called, { ...grace, position: 1 }];
      return { status: 200, body: { data: { completed: null, called } } };
    };
    show(consolePath);
    const user = userEvent.setup();
    const waiting = await screen.findByRole('region', { name: 'Waiting' });
    expect(within(waiting).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(waiting).getByText('#2 · about 5 min')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Call next' }));

    expect(await screen.findByTestId('now-serving')).toHaveTextContent('A-001');
    const nextCall = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/next-token'));
    expect(JSON.parse(String(nextCall?.[1]?.body))).toEqual({ sessionId: SESSION });
    expect(screen.getByRole('button', { name: 'Start serving' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'No-show' })).toBeInTheDocument();
    // The called token is "Now serving", not one of those waiting.
    await waitFor(() =>
      expect(within(waiting).queryByText('Ada Lovelace')).not.toBeInTheDocument(),
    );
    expect(within(waiting).getByRole('heading', { name: 'Waiting (1)' })).toBeInTheDocument();
  });

  it('knows my current token from the server after a reload, and takes over another desk’s', async () => {
    const mine = {
      ...ada,
      status: 'serving' as const,
      position: null,
      calledBy: STAFF,
      calledByMe: true,
    };
    const theirs = {
      ...grace,
      status: 'called' as const,
      position: null,
      calledBy: OTHER_DESK,
      calledByMe: false,
    };
    tokens = [mine, theirs];
    let takenOver: string | undefined;
    handlers[`POST /api/queues/sessions/tokens/${grace.id}/take-over`] = () => {
      takenOver = grace.id;
      const taken = { ...theirs, calledBy: STAFF, calledByMe: true };
      tokens = [{ ...mine, status: 'served' as const, calledByMe: true }, taken];
      return { status: 200, body: { data: taken } };
    };
    show(consolePath);
    const user = userEvent.setup();
    // Nothing remembered in this tab: the server says which token is this staff member's.
    expect(await screen.findByTestId('now-serving')).toHaveTextContent('A-001');
    expect(screen.getByRole('button', { name: 'Complete' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Take over token A-001' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Take over token A-002' }));
    await waitFor(() => expect(screen.getByTestId('now-serving')).toHaveTextContent('A-002'));
    expect(takenOver).toBe(grace.id);
  });

  it("shows the server's reason when it refuses to call", async () => {
    handlers['POST /api/queues/sessions/next-token'] = () => ({
      status: 409,
      body: {
        error: {
          code: 'session_not_open',
          message: 'The session is paused; open it to call tokens.',
        },
      },
    });
    show(consolePath);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Call next' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The session is paused; open it to call tokens.',
    );
    expect(screen.queryByTestId('now-serving')).not.toBeInTheDocument();
  });

  it('checks a walk-in phone with the contract rule, and shows the server refusing one on its field', async () => {
    let sent = 0;
    handlers['POST /api/queues/sessions/tokens'] = () => {
      sent++;
      return {
        status: 400,
        body: { error: { code: 'invalid_phone', message: 'Not a valid phone number.' } },
      };
    };
    show(consolePath);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/Visitor's name/), 'Alan');
    const phone = screen.getByLabelText(/Phone/);
    await user.type(phone, '+44 20 79');
    await user.click(screen.getByRole('button', { name: 'Issue token' }));
    expect(await screen.findByText(/This is not a valid phone number/)).toBeInTheDocument();
    expect(sent).toBe(0);

    // A national number is read in the company's country (the board's), as the server does.
    await user.clear(phone);
    await user.type(phone, '07700 90078');
    await user.click(screen.getByRole('button', { name: 'Issue token' }));
    expect(await screen.findByText(/This is not a valid phone number/)).toBeInTheDocument();
    expect(sent).toBe(0);

    // The server's own refusal lands on the field too.
    await user.clear(phone);
    await user.type(phone, '07911 123456');
    await user.click(screen.getByRole('button', { name: 'Issue token' }));
    await waitFor(() => expect(sent).toBe(1));
    expect(await screen.findByText(/This is not a valid phone number/)).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong. Please try again.')).not.toBeInTheDocument();
  });

  it('issues a walk-in token with the name and phone given', async () => {
    let sent: unknown;
    handlers['POST /api/queues/sessions/tokens'] = (body) => {
      sent = body;
      return {
        status: 201,
        body: { data: token({ displayNumber: 'A-003', visitorName: 'Alan' }) },
      };
    };
    show(consolePath);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/Visitor's name/), 'Alan');
    await user.type(screen.getByLabelText(/Phone/), '+44 20 7946 0018');
    await user.click(screen.getByRole('button', { name: 'Issue token' }));
    expect(await screen.findByText('Token A-003 issued.')).toBeInTheDocument();
    expect(sent).toEqual({
      sessionId: SESSION,
      visitorName: 'Alan',
      visitorPhone: '+44 20 7946 0018',
    });
  });
});

describe('the desk asks the queue questions', () => {
  it('refuses to send a walk-in without a required answer, then sends the answers given', async () => {
    handlers[`GET /api/company/queues/${ada.queueId}`] = () => ({
      status: 200,
      body: {
        data: {
          id: ada.queueId,
          online: false,
          intakeQuestions: [
            {
              id: 'reason',
              label: 'Reason for the visit',
              helpText: '',
              kind: 'choice',
              options: ['Passport', 'Visa'],
              required: true,
            },
            {
              id: 'notes',
              label: 'Anything else?',
              helpText: '',
              kind: 'text',
              options: [],
              required: false,
            },
          ],
        },
      },
    });
    const sent: unknown[] = [];
    handlers['POST /api/queues/sessions/tokens'] = (body) => {
      sent.push(body);
      return { status: 201, body: { data: token({ displayNumber: 'A-004' }) } };
    };
    show(consolePath);
    const user = userEvent.setup();
    const reason = await screen.findByRole('radiogroup', { name: /Reason for the visit/ });
    await user.type(screen.getByLabelText(/Visitor's name/), 'Alan');
    await user.click(screen.getByRole('button', { name: 'Issue token' }));
    expect(await screen.findByText('Please answer this question.')).toBeInTheDocument();
    expect(reason).toHaveAccessibleDescription('Please answer this question.');
    expect(sent).toEqual([]);
    await user.click(within(reason).getByRole('radio', { name: 'Visa' }));
    await user.click(screen.getByRole('button', { name: 'Issue token' }));
    expect(await screen.findByText('Token A-004 issued.')).toBeInTheDocument();
    // An optional question left empty is not sent; the form is ready for the next visitor.
    expect(sent).toEqual([
      {
        sessionId: SESSION,
        visitorName: 'Alan',
        answers: [{ questionId: 'reason', value: 'Visa' }],
      },
    ]);
    expect(within(reason).getByRole('radio', { name: 'Visa' })).not.toBeChecked();
  });
});

describe('the live console, realtime and refusals', () => {
  it('reloads the lists when the session topic announces a change', async () => {
    show(consolePath);
    const waiting = await screen.findByRole('region', { name: 'Waiting' });
    expect(within(waiting).queryByText('Alan Turing')).not.toBeInTheDocument();
    tokens = [
      ...tokens,
      token({
        id: '2d9e3a0f-4f5c-4e7d-8a1b-3c4d5e6f7081',
        number: 3,
        displayNumber: 'A-003',
        visitorName: 'Alan Turing',
        position: 3,
      }),
    ];
    fakeRealtime(realtime).send(`/topic/session/${SESSION}`, { type: 'token.created' });
    expect(await within(waiting).findByText('Alan Turing')).toBeInTheDocument();
  });

  it("shows the server's reason when a token action is refused", async () => {
    const called = {
      ...ada,
      status: 'called' as const,
      position: null,
      calledBy: STAFF,
      calledByMe: true,
    };
    handlers['POST /api/queues/sessions/next-token'] = () => {
      tokens = [called, grace];
      return { status: 200, body: { data: { completed: null, called } } };
    };
    handlers[`POST /api/queues/sessions/tokens/${ada.id}/start`] = () => ({
      status: 409,
      body: {
        error: {
          code: 'invalid_token_transition',
          message: 'Token A-001 is no_show; it cannot be started.',
        },
      },
    });
    show(consolePath);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Call next' }));
    await user.click(await screen.findByRole('button', { name: 'Start serving' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Token A-001 is no_show; it cannot be started.',
    );
  });
});

describe('the session tokens table', () => {
  it('filters by name and cancels a token after confirmation', async () => {
    let cancelled: unknown;
    handlers['POST /api/queues/sessions/tokens-cancel'] = (body) => {
      cancelled = body;
      return { status: 200, body: { data: { ...grace, status: 'cancelled' } } };
    };
    show(`/admin/session-tokens/${SESSION}`);
    const user = userEvent.setup();
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Search'), 'grace');
    await waitFor(() => expect(screen.queryByText('Ada Lovelace')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Cancel token A-002' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Reason/), 'Left early');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel token' }));
    await waitFor(() => expect(cancelled).toEqual({ tokenId: grace.id, reason: 'Left early' }));
  });
});

describe('the live console, video calls', () => {
  const MEETING = '3e0f4b1a-5a6d-4f8e-9b2c-4d5e6f708192';
  const serving = {
    ...ada,
    status: 'serving' as const,
    position: null,
    calledBy: STAFF,
    calledByMe: true,
  };
  const queueAnswer = (online: boolean) => () => ({
    status: 200,
    body: { data: { id: ada.queueId, name: 'General practice', online } },
  });

  it('rings the visitor of the token being served and opens the meeting screen', async () => {
    tokens = [serving, grace];
    handlers[`GET /api/company/queues/${ada.queueId}`] = queueAnswer(true);
    let started: unknown;
    handlers['POST /api/meetings'] = (body) => {
      started = body;
      return {
        status: 201,
        body: {
          data: { id: MEETING, queueId: ada.queueId, sessionId: SESSION, tokenId: ada.id },
        },
      };
    };
    show(consolePath);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Video call' }));
    expect(
      await screen.findByText(`Meeting screen ${ada.queueId}/${SESSION}/${MEETING}`),
    ).toBeInTheDocument();
    expect(started).toEqual({ sessionId: SESSION, tokenId: ada.id });
  });

  it('offers no video call for a queue without video, nor without a token in service', async () => {
    handlers[`GET /api/company/queues/${ada.queueId}`] = queueAnswer(false);
    tokens = [serving, grace];
    show(consolePath);
    expect(await screen.findByTestId('now-serving')).toHaveTextContent('A-001');
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([url]) =>
          String(url).endsWith(`/company/queues/${ada.queueId}`),
        ),
      ).toBe(true),
    );
    expect(screen.getByRole('button', { name: 'Complete' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Video call' })).not.toBeInTheDocument();
  });

  it('shows no video call while nobody is being served', async () => {
    handlers[`GET /api/company/queues/${ada.queueId}`] = queueAnswer(true);
    show(consolePath);
    expect(await screen.findByRole('button', { name: 'Call next' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Video call' })).not.toBeInTheDocument();
  });

  it("shows the server's reason when the call is refused, and a way back to a call in progress", async () => {
    tokens = [serving, grace];
    handlers[`GET /api/company/queues/${ada.queueId}`] = queueAnswer(true);
    handlers['POST /api/meetings'] = () => ({
      status: 409,
      body: {
        error: {
          code: 'visitor_not_reachable',
          message: 'This visitor has no account, so there is nobody to ring.',
        },
      },
    });
    show(consolePath);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Video call' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This visitor has no account, so there is nobody to ring.',
    );
    expect(screen.queryByRole('link', { name: 'Go to the call' })).not.toBeInTheDocument();

    handlers['POST /api/meetings'] = () => ({
      status: 409,
      body: {
        error: {
          code: 'meeting_in_progress',
          message: 'This token already has a call in progress.',
          details: { meetingId: MEETING },
        },
      },
    });
    await user.click(screen.getByRole('button', { name: 'Video call' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This token already has a call in progress.',
    );
    await user.click(screen.getByRole('link', { name: 'Go to the call' }));
    expect(
      await screen.findByText(`Meeting screen ${ada.queueId}/${SESSION}/${MEETING}`),
    ).toBeInTheDocument();
  });
});
