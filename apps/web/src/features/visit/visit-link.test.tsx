import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { topics } from '@upnext/contract/realtime-topics';
import type { Visit } from '@upnext/contract/visits';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Component as VisitPage } from '../../app/routes/VisitPage.tsx';
import { publicRealtime } from '../../lib/stomp-client.ts';
import { fakeRealtime } from '../../test/realtime.ts';
import { renderWithProviders } from '../../test/render.tsx';

vi.mock('../../lib/stomp-client.ts', async (original) =>
  (await import('../../test/realtime.ts')).mockStompClient(await original()),
);

const KEY = 'k'.repeat(43);
const SESSION = '0b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f23';

const waiting: Visit = {
  displayNumber: 'A-017',
  status: 'waiting',
  kind: 'walk_in',
  position: 4,
  estimatedWaitMinutes: 40,
  turnApproaching: false,
  joinedAt: '2026-03-30T08:05:00.000+00:00',
  calledAt: null,
  slotStartsAt: null,
  canLeave: true,
  companyName: 'Harbourview Health Centre',
  queueName: 'General practice',
  counter: 'Room 3',
  serviceName: null,
  place: {
    name: 'Harbour Street',
    address: '12 Harbour Street',
    city: 'Leith',
    mapUrl: 'https://www.openstreetmap.org/?mlat=55.975&mlon=-3.17#map=17/55.975/-3.17',
  },
  session: {
    id: SESSION,
    status: 'open',
    startsAt: '2026-03-30T08:00:00.000+00:00',
    endsAt: '2026-03-30T11:00:00.000+00:00',
    timezone: 'Europe/London',
    notes: '',
  },
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const fetchMock = vi.fn<typeof fetch>();
let current: () => Response;

function open() {
  const router = createMemoryRouter([{ path: '/visit/:key', element: <VisitPage /> }], {
    initialEntries: [`/visit/${KEY}`],
  });
  renderWithProviders(<RouterProvider router={router} />, new QueryClient());
}
const reads = () =>
  fetchMock.mock.calls.filter(
    ([url, init]) => String(url) === `/api/visits/${KEY}` && (init?.method ?? 'GET') === 'GET',
  ).length;

describe('a status link', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    current = () => json({ data: waiting });
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (url === `/api/visits/${KEY}` && (init?.method ?? 'GET') === 'GET') return current();
      if (url === `/api/visits/${KEY}/leave` && init?.method === 'POST') {
        return json({ data: { ...waiting, status: 'cancelled', canLeave: false, position: null } });
      }
      return json({ error: { code: 'not_found', message: 'no stub' } }, 404);
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('shows the number, the place in line and where the visit is, and follows its topic', async () => {
    open();
    expect(await screen.findByTestId('token-number')).toHaveTextContent('A-017');
    expect(screen.getByTestId('token-position')).toHaveTextContent('4');
    expect(screen.getByText('Harbourview Health Centre')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open in a map' })).toHaveAttribute(
      'href',
      waiting.place?.mapUrl,
    );
    expect(fakeRealtime(publicRealtime).topics).toContain(topics.visit(KEY));
  });

  it('reads its place again when the line moves, not when someone joins at the end', async () => {
    open();
    await screen.findByTestId('token-number');
    const before = reads();
    const state = {
      type: 'session.state',
      sessionId: SESSION,
      status: 'open',
      notes: '',
      nowServing: null,
      waitingCount: 9,
      averageServiceSeconds: 600,
      at: '2026-03-30T08:30:00.000+00:00',
    };
    fakeRealtime(publicRealtime).send(topics.visit(KEY), { ...state, placesMoved: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads()).toBe(before);

    current = () => json({ data: { ...waiting, status: 'called', position: null } });
    fakeRealtime(publicRealtime).send(topics.visit(KEY), {
      type: 'session.now_serving',
      sessionId: SESSION,
      number: 17,
      label: 'A-017',
      serviceArea: 'Room 3',
      recall: false,
      at: '2026-03-30T08:31:00.000+00:00',
    });
    expect(await screen.findByText('Please go to Room 3 now.')).toBeInTheDocument();
    expect(reads()).toBe(before + 1);
  });

  it('leaves the queue after asking, then says the visit has ended', async () => {
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByRole('button', { name: 'Leave the queue' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Leave the queue' }));
    expect(
      await screen.findByRole('heading', { name: 'This visit has ended' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/no longer in the queue/)).toBeInTheDocument();
  });

  it('says when a link has ended or names nothing', async () => {
    current = () =>
      json(
        { error: { code: 'visit_ended', message: 'ended', details: { status: 'served' } } },
        410,
      );
    open();
    expect(
      await screen.findByRole('heading', { name: 'This visit has ended' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(reads()).toBe(1));
  });

  it('tells a background tab when the turn comes: a notification once allowed, and the title', async () => {
    const shown: string[] = [];
    class FakeNotification {
      static permission: NotificationPermission = 'granted';
      static requestPermission = async () => 'granted' as const;
      constructor(title: string) {
        shown.push(title);
      }
    }
    vi.stubGlobal('Notification', FakeNotification);
    vi.stubGlobal(
      'AudioContext',
      class {
        resume = async () => {};
        currentTime = 0;
        destination = {};
        createOscillator = () => ({
          frequency: {},
          connect: (next: unknown) => next,
          start: () => {},
          stop: () => {},
        });
        createGain = () => ({
          gain: { setValueAtTime: () => {}, exponentialRampToValueAtTime: () => {} },
          connect: (next: unknown) => next,
        });
      },
    );
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByRole('button', { name: 'Alert me when it is my turn' }));
    expect(await screen.findByText(/You will be alerted/)).toBeInTheDocument();
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    try {
      current = () => json({ data: { ...waiting, status: 'called', position: null } });
      fakeRealtime(publicRealtime).send(topics.visit(KEY), {
        type: 'session.now_serving',
        sessionId: SESSION,
        number: 17,
        label: 'A-017',
        serviceArea: 'Room 3',
        recall: false,
        at: '2026-03-30T08:31:00.000+00:00',
      });
      await waitFor(() => expect(shown).toEqual(['A-017: it is your turn, go to Room 3']));
      expect(document.title).toBe('● A-017: it is your turn, go to Room 3');
    } finally {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
    }
  });
});
