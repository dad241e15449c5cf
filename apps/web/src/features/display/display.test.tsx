import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { QueueBoard, SessionBoard } from '@upnext/contract/tokens';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Component as BranchBoardPage } from '../../app/routes/BranchBoardPage.tsx';
import { Component as DisplayPage } from '../../app/routes/DisplayPage.tsx';
import { formatTime } from '../../entities/token/format.ts';
import { publicRealtime, realtime } from '../../lib/stomp-client.ts';
import { fakeRealtime } from '../../test/realtime.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { spokenNumber } from './hooks/useCallAnnouncer.ts';

vi.mock('../../lib/stomp-client.ts', async (original) =>
  (await import('../../test/realtime.ts')).mockStompClient(await original()),
);

const SESSION = '6f1d2c7a-3b1e-4f4e-9a8c-2d2b6f9e0a11';
const SECOND = '7a2e3d8b-4c2f-4a5f-8b9d-3e3c7a0f1b22';
const QUEUE = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const at = (minute: number) => `2026-11-23T09:${String(minute).padStart(2, '0')}:00.000Z`;
const board: SessionBoard = {
  sessionId: SESSION,
  companyName: 'Harbourview Health Centre',
  country: 'GB',
  queueId: QUEUE,
  queueName: 'General practice',
  joinCode: 'HARBOUR',
  counter: 'Counter 2',
  status: 'open',
  notes: '',
  nowServing: 'A-017',
  nowServingCounter: 'Counter 2',
  nowServingAt: at(20),
  recentlyCalled: [
    { label: 'A-016', counter: 'Counter 2', calledAt: at(12) },
    { label: 'A-015', counter: 'Counter 2', calledAt: at(5) },
  ],
  waiting: 1,
  averageServiceSeconds: 300,
};

const fetchMock = vi.fn<typeof fetch>();
const json = (data: unknown) =>
  new Response(JSON.stringify({ data }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

/** Answers each board's own path with its board, and a queue's with its branch board. */
function serve(boards: readonly SessionBoard[], queue?: QueueBoard) {
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (queue && url === `/api/queues/${queue.queueId}/board`) return json(queue);
    const found = boards.find((b) => url === `/api/queues/sessions/${b.sessionId}/board`);
    return found ? json(found) : new Response('{}', { status: 404 });
  });
}

function open(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/display/:sessionId', element: <DisplayPage /> },
      { path: '/display/queue/:queueId', element: <BranchBoardPage /> },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
}

const nowServing = (label: string, counter: string, minute: number, sessionId = SESSION) => ({
  type: 'session.now_serving',
  sessionId,
  number: Number(label.slice(2)),
  label,
  serviceArea: counter,
  recall: false,
  at: at(minute),
});

describe('the display board', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('shows the call, where to go, who is waiting, the calls before with counter and time, and a QR code to join', async () => {
    serve([board]);
    open(`/display/${SESSION}`);
    expect(await screen.findByTestId('now-serving')).toHaveTextContent('A-017');
    // Sized by its length, so a long label still fits on one line.
    expect(screen.getByTestId('now-serving').style.getPropertyValue('--chars')).toBe('5');
    expect(screen.getByText('Please go to Counter 2')).toBeInTheDocument();
    expect(screen.getByText('1 person waiting')).toBeInTheDocument();
    expect(screen.getByText('Harbourview Health Centre · General practice')).toBeInTheDocument();
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'TicketCounterTime',
      `A-016Counter 2${formatTime(at(12))}`,
      `A-015Counter 2${formatTime(at(5))}`,
    ]);
    expect(screen.getByText('Scan to join the queue')).toBeInTheDocument();
    expect(screen.getByText('or enter code HARBOUR')).toBeInTheDocument();
    const qr = await screen.findByRole('img', {
      name: 'QR code with the link to join General practice',
    });
    expect(decodeURIComponent(qr.getAttribute('src') ?? '')).toContain('<svg');
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe(`/api/queues/sessions/${SESSION}/board`);
    expect(screen.getByRole('button', { name: 'Turn on sound' })).toBeInTheDocument();
  });

  it('shows a muted dash, the session state and an empty history before anyone is called', async () => {
    serve([
      {
        ...board,
        status: 'paused',
        nowServing: null,
        nowServingCounter: null,
        nowServingAt: null,
        recentlyCalled: [],
      },
    ]);
    open(`/display/${SESSION}`);
    expect(await screen.findByText('Short pause: we will be right back')).toBeInTheDocument();
    expect(screen.getByLabelText('Nobody called yet')).toHaveTextContent('—');
    expect(screen.queryByTestId('now-serving')).not.toBeInTheDocument();
    expect(screen.getByText('Earlier calls show here.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("follows the session's topic over the anonymous connection: calls and pauses show at once", async () => {
    serve([board]);
    open(`/display/${SESSION}`);
    expect(await screen.findByTestId('now-serving')).toHaveTextContent('A-017');
    const topic = `/topic/session/${SESSION}`;
    const live = fakeRealtime(publicRealtime);
    expect(live.topics).toEqual([topic]);
    expect(fakeRealtime(realtime).topics).toEqual([]);
    const reads = fetchMock.mock.calls.length;
    act(() => live.send(topic, nowServing('A-018', 'Counter 3', 30)));
    await waitFor(() => expect(screen.getByTestId('now-serving')).toHaveTextContent('A-018'));
    expect(screen.getByText('Please go to Counter 3')).toBeInTheDocument();
    // The call before moves to the top of the history, with its counter and time.
    const first = within(screen.getByRole('table')).getAllByRole('row')[1];
    expect(first).toHaveTextContent(`A-017Counter 2${formatTime(at(20))}`);
    act(() =>
      live.send(topic, {
        type: 'session.state',
        sessionId: SESSION,
        status: 'paused',
        notes: 'Running 15 minutes late',
        nowServing: { number: 18, label: 'A-018' },
        waitingCount: 0,
        averageServiceSeconds: 300,
        at: at(31),
      }),
    );
    expect(await screen.findByText('Short pause: we will be right back')).toBeInTheDocument();
    expect(screen.getByTestId('board-notes')).toHaveTextContent('Running 15 minutes late');
    expect(screen.getByText('Please go to Counter 3')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(reads); // the events were applied, not refetched
  });

  it('goes full screen on request and keeps the screen awake, again after it was hidden', async () => {
    const request = vi.fn(async () => {
      Object.defineProperty(document, 'fullscreenElement', {
        configurable: true,
        value: document.documentElement,
      });
      document.dispatchEvent(new Event('fullscreenchange'));
    });
    const exit = vi.fn(async () => {
      Object.defineProperty(document, 'fullscreenElement', { configurable: true, value: null });
      document.dispatchEvent(new Event('fullscreenchange'));
    });
    document.documentElement.requestFullscreen = request;
    document.exitFullscreen = exit;
    const locks: Array<{ released: boolean; release: () => Promise<void> }> = [];
    const wakeLock = {
      request: vi.fn(async () => {
        const lock = {
          released: false,
          release: async () => {
            lock.released = true;
          },
        };
        locks.push(lock);
        return lock;
      }),
    };
    Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: wakeLock });
    try {
      serve([board]);
      open(`/display/${SESSION}`);
      await screen.findByTestId('now-serving');
      await waitFor(() => expect(wakeLock.request).toHaveBeenCalledWith('screen'));
      fireEvent.click(screen.getByRole('button', { name: 'Full screen' }));
      expect(request).toHaveBeenCalled();
      fireEvent.click(await screen.findByRole('button', { name: 'Leave full screen' }));
      expect(exit).toHaveBeenCalled();
      // The browser releases the lock while the page is hidden; visible again, it is re-taken.
      if (locks[0]) locks[0].released = true;
      act(() => document.dispatchEvent(new Event('visibilitychange')));
      await waitFor(() => expect(wakeLock.request).toHaveBeenCalledTimes(2));
    } finally {
      Reflect.deleteProperty(navigator, 'wakeLock');
      Reflect.deleteProperty(document, 'fullscreenElement');
      Reflect.deleteProperty(document.documentElement, 'requestFullscreen');
      Reflect.deleteProperty(document, 'exitFullscreen');
    }
  });

  it('reads a token out character by character', () => {
    expect(spokenNumber('A-017')).toBe('A 0 1 7');
    expect(spokenNumber('017')).toBe('0 1 7');
  });
});

describe('the branch board', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  const second: SessionBoard = {
    ...board,
    sessionId: SECOND,
    counter: 'Dr Perera',
    nowServing: null,
    nowServingCounter: null,
    nowServingAt: null,
    recentlyCalled: [],
    waiting: 4,
  };
  const queue: QueueBoard = {
    queueId: QUEUE,
    queueName: 'General practice',
    companyName: 'Harbourview Health Centre',
    joinCode: 'HARBOUR',
    sessions: [board, second],
  };

  it("shows every counter's call and keeps each live on its session's topic", async () => {
    serve([board, second], queue);
    open(`/display/queue/${QUEUE}`);
    const cards = await screen.findAllByTestId('counter-card');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Counter 2',
      'Dr Perera',
    ]);
    const call = (card: HTMLElement | undefined) =>
      within(card as HTMLElement).getByTestId('counter-call').textContent;
    expect(call(cards[0])).toBe('Counter 2, now serving: A-017');
    expect(cards[0]).toHaveTextContent(`Before: A-016 (${formatTime(at(12))})`);
    expect(call(cards[1])).toBe('Dr Perera, now serving: —Nobody called yet');
    expect(cards[1]).toHaveTextContent('4 people waiting');
    const live = fakeRealtime(publicRealtime);
    expect(live.topics.sort()).toEqual(
      [`/topic/session/${SECOND}`, `/topic/session/${SESSION}`].sort(),
    );
    const reads = fetchMock.mock.calls.length;
    act(() => live.send(`/topic/session/${SECOND}`, nowServing('A-003', 'Dr Perera', 40, SECOND)));
    await waitFor(() => expect(call(cards[1])).toBe('Dr Perera, now serving: A-003'));
    expect(call(cards[0])).toBe('Counter 2, now serving: A-017');
    expect(fetchMock).toHaveBeenCalledTimes(reads); // applied, not refetched
    expect(screen.getByText('or enter code HARBOUR')).toBeInTheDocument();
  });

  it('says so when no counter runs today', async () => {
    serve([], { ...queue, sessions: [] });
    open(`/display/queue/${QUEUE}`);
    expect(await screen.findByText('No sessions are running here today.')).toBeInTheDocument();
    expect(screen.queryByTestId('counter-card')).not.toBeInTheDocument();
    expect(screen.getByText('Scan to join the queue')).toBeInTheDocument();
  });
});
