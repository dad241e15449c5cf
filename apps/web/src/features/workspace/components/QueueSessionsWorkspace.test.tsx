import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Session } from '@upnext/contract/sessions';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { weekStart } from '../../../entities/session/format.ts';
import { setAuthSession } from '../../../lib/auth-session.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { QueueSessionsWorkspace } from './QueueSessionsWorkspace.tsx';

const companyId = '0b7a3f0e-1f1d-4a0c-9a55-2f4c2b7b1a02';
const userId = '0b7a3f0e-1f1d-4a0c-9a55-2f4c2b7b1a99';

function session(id: string, date: string, start: string, status: Session['status']): Session {
  return {
    id: `0b7a3f0e-1f1d-4a0c-9a55-2f4c2b7b1a${id}`,
    queueId: '0b7a3f0e-1f1d-4a0c-9a55-2f4c2b7b1a01',
    queueName: 'General practice',
    companyId,
    subQueueId: null,
    subQueueName: id === '10' ? 'Dr Perera' : null,
    date,
    startTime: start,
    endTime: '12:00',
    timezone: 'Europe/London',
    startsAt: `${date}T${start}:00.000Z`,
    endsAt: `${date}T12:00:00.000Z`,
    capacity: 20,
    status,
    online: false,
    notes: '',
    visitorNotes: '',
    seriesId: null,
    counts: {
      issued: 0,
      booked: 0,
      waiting: 0,
      called: 0,
      serving: 0,
      served: 0,
      noShows: 0,
      cancelled: 0,
      nowServing: null,
    },
  };
}

// Two sessions on Wednesday 15 July (listed out of order) and one on Monday 13 July.
const sessions = [
  session('10', '2026-07-15', '10:30', 'open'),
  session('11', '2026-07-15', '08:00', 'scheduled'),
  session('12', '2026-07-13', '09:00', 'cancelled'),
];

let fetchMock: ReturnType<typeof vi.fn>;
const queryBodies = () =>
  fetchMock.mock.calls
    .filter(([url]) => String(url).includes('/sessions/query'))
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)));

function answer(data: unknown) {
  return new Response(JSON.stringify({ data }), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });
}

beforeEach(() => {
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const path = String(url);
    if (path.startsWith('/api/user/user-data')) {
      return answer({
        userId,
        displayName: 'Ada',
        companies: [
          { companyId, name: 'Harbour Clinic', slug: 'harbour', role: 'owner', status: 'active' },
        ],
      });
    }
    if (path.startsWith('/api/company/queues')) return answer([]);
    if (path.startsWith(`/api/company/${companyId}`)) {
      return answer({ id: companyId, timezone: 'Europe/London' });
    }
    if (path.startsWith('/api/queues/sessions/query')) {
      const { from, to } = JSON.parse(String(init?.body));
      return answer(sessions.filter((s) => s.date >= from && s.date <= to));
    }
    throw new Error(`unexpected request ${path}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  setAuthSession({ accessToken: 'access-token', user: { id: userId, email: 'ada@example.com' } });
});
afterEach(() => {
  setAuthSession(null);
  vi.unstubAllGlobals();
});

function Search() {
  return <output data-testid="search">{useLocation().search}</output>;
}

function renderAt(search: string) {
  renderWithProviders(
    <MemoryRouter initialEntries={[`/admin/queue-sessions${search}`]}>
      <QueueSessionsWorkspace />
      <Search />
    </MemoryRouter>,
  );
  return userEvent.setup();
}

const search = () => new URLSearchParams(screen.getByTestId('search').textContent ?? '');

describe('weekStart', () => {
  it('is the Monday of the date, Sunday included in the week before', () => {
    expect(weekStart('2026-07-15')).toBe('2026-07-13');
    expect(weekStart('2026-07-13')).toBe('2026-07-13');
    expect(weekStart('2026-07-19')).toBe('2026-07-13');
    expect(weekStart('2026-03-01')).toBe('2026-02-23');
  });
});

describe('QueueSessionsWorkspace week view', { timeout: 30_000 }, () => {
  it('shows Monday to Sunday as columns, each session in its day by start time', async () => {
    renderAt('?view=week&date=2026-07-15');
    expect(
      await screen.findByText('3 sessions in the week Mon, Jul 13 – Sun, Jul 19, 2026'),
    ).toBeInTheDocument();
    expect(queryBodies().at(-1)).toMatchObject({ companyId, from: '2026-07-13', to: '2026-07-19' });
    const days = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(days).toEqual([
      'Mon, Jul 13',
      'Tue, Jul 14',
      'Wed, Jul 15',
      'Thu, Jul 16',
      'Fri, Jul 17',
      'Sat, Jul 18',
      'Sun, Jul 19',
    ]);

    const wednesday = screen.getByRole('region', { name: 'Wed, Jul 15' });
    const cards = within(wednesday).getAllByRole('listitem');
    expect(cards.map((c) => c.textContent)).toEqual([
      '08:00–12:00ScheduledGeneral practiceWhole queue (no counter)',
      '10:30–12:00OpenGeneral practiceDr Perera',
    ]);
    const monday = screen.getByRole('region', { name: 'Mon, Jul 13' });
    expect(within(monday).getByText('Cancelled')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Tue, Jul 14' })).getByText('No sessions'),
    ).toBeInTheDocument();
  });

  it('keeps the week in the URL: previous/next move by seven days, a day opens its list', async () => {
    const user = renderAt('?view=week&date=2026-07-15');
    await screen.findByText('3 sessions in the week Mon, Jul 13 – Sun, Jul 19, 2026');

    await user.click(screen.getByRole('button', { name: 'Next week' }));
    expect(search().get('date')).toBe('2026-07-22');
    expect(search().get('view')).toBe('week');
    expect(
      await screen.findByText('No sessions in the week Mon, Jul 20 – Sun, Jul 26, 2026'),
    ).toBeInTheDocument();
    expect(queryBodies().at(-1)).toMatchObject({ from: '2026-07-20', to: '2026-07-26' });

    await user.click(screen.getByRole('button', { name: 'Previous week' }));
    await screen.findByText('3 sessions in the week Mon, Jul 13 – Sun, Jul 19, 2026');
    await user.click(screen.getByRole('link', { name: 'Wed, Jul 15' }));
    expect(search().get('view')).toBeNull();
    expect(search().get('date')).toBe('2026-07-15');
    expect(await screen.findByText('2 sessions on Wed, Jul 15, 2026')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Week' }));
    expect(search().get('view')).toBe('week');
  });
});
