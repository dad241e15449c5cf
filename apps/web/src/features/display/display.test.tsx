import { act, screen, waitFor } from '@testing-library/react';
import type { SessionBoard } from '@upnext/contract/tokens';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Component as DisplayPage } from '../../app/routes/DisplayPage.tsx';
import { publicRealtime, realtime } from '../../lib/stomp-client.ts';
import { fakeRealtime } from '../../test/realtime.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { spokenNumber } from './hooks/useCallAnnouncer.ts';

vi.mock('../../lib/stomp-client.ts', async (original) =>
  (await import('../../test/realtime.ts')).mockStompClient(await original()),
);

const SESSION = '6f1d2c7a-3b1e-4f4e-9a8c-2d2b6f9e0a11';
const board: SessionBoard = {
  sessionId: SESSION,
  companyName: 'Harbourview Health Centre',
  country: 'GB',
  queueName: 'General practice',
  status: 'open',
  notes: '',
  nowServing: 'A-017',
  nowServingCounter: 'Counter 2',
  recentlyCalled: ['A-016', 'A-015'],
  waiting: 1,
  averageServiceSeconds: 300,
};

const fetchMock = vi.fn<typeof fetch>();

function showBoard(data: SessionBoard) {
  fetchMock.mockResolvedValue(
    new Response(JSON.stringify({ data }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    }),
  );
  const router = createMemoryRouter([{ path: '/display/:sessionId', element: <DisplayPage /> }], {
    initialEntries: [`/display/${SESSION}`],
  });
  renderWithProviders(<RouterProvider router={router} />);
}

describe('the display board', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('shows the token being served, where to go, who is waiting and who was called before', async () => {
    showBoard(board);
    expect(await screen.findByTestId('now-serving')).toHaveTextContent('A-017');
    expect(screen.getByText('Please go to Counter 2')).toBeInTheDocument();
    expect(screen.getByText('1 person waiting')).toBeInTheDocument();
    expect(screen.getByText(/Called before: A-016/)).toBeInTheDocument();
    expect(screen.getByText('Harbourview Health Centre · General practice')).toBeInTheDocument();
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe(`/api/queues/sessions/${SESSION}/board`);
    expect(screen.getByRole('button', { name: 'Turn on sound' })).toBeInTheDocument();
  });

  it('shows a muted dash and the session state before anyone is called', async () => {
    showBoard({
      ...board,
      status: 'paused',
      nowServing: null,
      nowServingCounter: null,
      recentlyCalled: [],
    });
    expect(await screen.findByText('Short pause: we will be right back')).toBeInTheDocument();
    expect(screen.getByLabelText('Nobody called yet')).toHaveTextContent('—');
    expect(screen.queryByTestId('now-serving')).not.toBeInTheDocument();
  });

  it("follows the session's topic over the anonymous connection: calls and pauses show at once", async () => {
    showBoard(board);
    expect(await screen.findByTestId('now-serving')).toHaveTextContent('A-017');
    const topic = `/topic/session/${SESSION}`;
    const live = fakeRealtime(publicRealtime);
    expect(live.topics).toEqual([topic]);
    expect(fakeRealtime(realtime).topics).toEqual([]);
    const at = '2026-11-23T09:30:00.000Z';
    act(() =>
      live.send(topic, {
        type: 'session.now_serving',
        sessionId: SESSION,
        number: 18,
        label: 'A-018',
        serviceArea: 'Counter 3',
        recall: false,
        at,
      }),
    );
    await waitFor(() => expect(screen.getByTestId('now-serving')).toHaveTextContent('A-018'));
    expect(screen.getByText('Please go to Counter 3')).toBeInTheDocument();
    expect(screen.getByText(/Called before: A-017/)).toHaveTextContent(
      /A-017\s+·\s+A-016\s+·\s+A-015/,
    );
    act(() =>
      live.send(topic, {
        type: 'session.state',
        sessionId: SESSION,
        status: 'paused',
        notes: 'Running 15 minutes late',
        nowServing: { number: 18, label: 'A-018' },
        waitingCount: 0,
        averageServiceSeconds: 300,
        at,
      }),
    );
    expect(await screen.findByText('Short pause: we will be right back')).toBeInTheDocument();
    expect(screen.getByTestId('board-notes')).toHaveTextContent('Running 15 minutes late');
    expect(screen.getByText('Please go to Counter 3')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1); // the events were applied, not refetched
  });

  it('reads a token out character by character', () => {
    expect(spokenNumber('A-017')).toBe('A 0 1 7');
    expect(spokenNumber('017')).toBe('0 1 7');
  });
});
