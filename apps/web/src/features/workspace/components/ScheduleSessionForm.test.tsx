import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Queue, ServiceType, SubQueue } from '@upnext/contract/queues';
import type { ScheduleResult } from '@upnext/contract/sessions';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, todayLocal } from '../../../entities/session/format.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { ScheduleSessionForm } from './ScheduleSessionForm.tsx';

const now = '2026-03-01T08:00:00.000Z';
const queue: Queue = {
  id: '0b7a3f0e-1f1d-4a0c-9a55-2f4c2b7b1a01',
  companyId: '0b7a3f0e-1f1d-4a0c-9a55-2f4c2b7b1a02',
  company: {
    id: '0b7a3f0e-1f1d-4a0c-9a55-2f4c2b7b1a02',
    name: 'Harbour Clinic',
    slug: 'harbour-clinic',
    timezone: 'Europe/London',
    logoUrl: null,
  },
  name: 'General practice',
  description: '',
  joinCode: 'HARB42',
  tokenPrefix: 'A',
  mode: 'hybrid',
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
  createdAt: now,
  updatedAt: now,
};
const subQueues: SubQueue[] = [
  {
    id: '0b7a3f0e-1f1d-4a0c-9a55-2f4c2b7b1a03',
    queueId: queue.id,
    name: 'Dr Perera',
    staffUserIds: [],
    createdAt: now,
    updatedAt: now,
  },
];
const serviceTypes: ServiceType[] = [
  {
    id: '0b7a3f0e-1f1d-4a0c-9a55-2f4c2b7b1a04',
    queueId: queue.id,
    name: 'Consultation',
    description: '',
    durationMinutes: 15,
    priceMinor: null,
    active: true,
    createdAt: now,
    updatedAt: now,
  },
];

const date = todayLocal();
const planned = (conflicts: ScheduleResult['conflicts'], skipped = false, on = date) => ({
  date: on,
  startTime: '09:00',
  endTime: '12:00',
  startsAt: `${date}T09:00:00.000Z`,
  endsAt: `${date}T12:00:00.000Z`,
  conflicts,
  skipped,
});
const clash = {
  plannedDate: date,
  sessionId: '0b7a3f0e-1f1d-4a0c-9a55-2f4c2b7b1a05',
  date,
  startTime: '10:00',
  endTime: '11:30',
  status: 'scheduled' as const,
  subQueueId: subQueues[0]?.id ?? null,
};

function answer(data: unknown, status = 200) {
  const body = status < 400 ? { data } : { error: data };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

let fetchMock: ReturnType<typeof vi.fn>;
const sentBodies = () =>
  fetchMock.mock.calls.map(([, init]) => JSON.parse(String((init as RequestInit).body)));

beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function renderForm() {
  const onScheduled = vi.fn();
  renderWithProviders(
    <ScheduleSessionForm
      queue={queue}
      subQueues={subQueues}
      serviceTypes={serviceTypes}
      onScheduled={onScheduled}
    />,
  );
  return { onScheduled, user: userEvent.setup() };
}

const createButton = () => screen.getByRole('button', { name: /^Create/ });

describe('ScheduleSessionForm', { timeout: 30_000 }, () => {
  it('shows the conflicts of a dry run before anything is saved, and refuses to save them', async () => {
    fetchMock.mockResolvedValueOnce(
      answer({
        preview: true,
        seriesId: null,
        timezone: 'Europe/London',
        planned: [planned([clash])],
        conflicts: [clash],
        sessions: [],
      }),
    );
    const { onScheduled, user } = renderForm();
    expect(createButton()).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Check and preview' }));

    const alert = await screen.findByRole('alert', { name: /1 date overlaps an existing session/ });
    expect(alert).toHaveTextContent('1 of 1 sessions would overlap');
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(within(preview).getByText('Overlaps 10:00–11:30 (Scheduled)')).toBeInTheDocument();
    expect(createButton()).toBeDisabled();
    expect(screen.getByText('Resolve the overlaps below, then check again.')).toBeInTheDocument();

    // One request, a dry run, with the form's values as the contract shapes them.
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/queues/sessions/schedule');
    expect(sentBodies()[0]).toMatchObject({
      queueId: queue.id,
      subQueueId: subQueues[0]?.id,
      date,
      startTime: '09:00',
      endTime: '12:00',
      capacity: 50,
      recurrence: { kind: 'once' },
      services: [],
      preview: true,
    });
    expect(onScheduled).not.toHaveBeenCalled();
  });

  it('saves only from an up-to-date preview without conflicts', async () => {
    const free = {
      preview: true,
      seriesId: null,
      timezone: 'Europe/London',
      planned: [planned([])],
      conflicts: [],
      sessions: [],
    };
    fetchMock.mockResolvedValueOnce(answer(free)).mockResolvedValueOnce(answer(free));
    const { onScheduled, user } = renderForm();

    await user.click(screen.getByRole('button', { name: 'Check and preview' }));
    expect(await screen.findByText('1 session will be created. No overlaps.')).toBeInTheDocument();
    expect(createButton()).toHaveAccessibleName('Create 1 session');
    expect(createButton()).toBeEnabled();

    // Any change makes the preview stale: saving waits for a new check.
    fireEvent.change(screen.getByLabelText(/^Ends/), { target: { value: '13:00' } });
    expect(createButton()).toBeDisabled();
    expect(
      screen.getByText('This preview is out of date: the form changed since.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('You changed the schedule: check again before creating.'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByText('No overlaps. Ready to create.')).toBeInTheDocument();

    const saved = { ...free, preview: false, sessions: [] };
    fetchMock.mockResolvedValueOnce(answer(saved));
    await user.click(createButton());
    await vi.waitFor(() => expect(onScheduled).toHaveBeenCalledTimes(1));
    const bodies = sentBodies();
    expect(bodies).toHaveLength(3);
    expect(bodies[1]).toMatchObject({ endTime: '13:00', preview: true });
    expect(bodies[2]).toMatchObject({ endTime: '13:00', preview: false });
  });

  it('validates with the shared schema before asking the server', async () => {
    const { user } = renderForm();
    fireEvent.change(screen.getByLabelText(/^Ends/), { target: { value: '08:00' } });
    await user.click(screen.getByRole('radio', { name: 'Every week' }));
    await user.click(screen.getByRole('button', { name: 'Add a service' }));
    await user.click(screen.getByRole('button', { name: 'Check and preview' }));

    expect(await screen.findByText('Must be after the start time')).toBeInTheDocument();
    expect(screen.getByText('Choose a service')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('starts a weekly series with a valid last date, four weeks on (never "Invalid Date")', async () => {
    const { user } = renderForm();
    await user.click(screen.getByRole('radio', { name: 'Every week' }));
    const until = screen.getByRole('button', { name: /Repeat until/ });
    expect(until).not.toHaveTextContent('Invalid Date');
    const [y, m, d] = addDays(date, 28).split('-').map(Number) as [number, number, number];
    const expected = new Date(Date.UTC(y, m - 1, d));
    expect(until).toHaveTextContent(
      String(expected.getUTCDate()) +
        ' ' +
        expected.toLocaleString('en', { month: 'short', timeZone: 'UTC' }),
    );
    fetchMock.mockResolvedValueOnce(
      answer({
        preview: true,
        seriesId: null,
        timezone: 'Europe/London',
        planned: [],
        conflicts: [],
        sessions: [],
      }),
    );
    await user.click(screen.getByRole('switch', { name: /Skip dates that clash/ }));
    await user.click(screen.getByRole('button', { name: 'Check and preview' }));
    expect(sentBodies()[0]).toMatchObject({
      recurrence: { kind: 'weekly', until: addDays(date, 28) },
      skipConflicts: true,
    });
  });

  it('marks the dates "Skip dates that clash" leaves out, and counts only the others', async () => {
    const next = addDays(date, 7);
    const skippedClash = { ...clash, plannedDate: next, date: next };
    fetchMock.mockResolvedValueOnce(
      answer({
        preview: true,
        seriesId: null,
        timezone: 'Europe/London',
        planned: [planned([]), planned([skippedClash], true, next)],
        conflicts: [],
        sessions: [],
      }),
    );
    const { user } = renderForm();
    await user.click(screen.getByRole('radio', { name: 'Every week' }));
    await user.click(screen.getByRole('switch', { name: /Skip dates that clash/ }));
    await user.click(screen.getByRole('button', { name: 'Check and preview' }));

    expect(await screen.findByText('1 session will be created. No overlaps.')).toBeInTheDocument();
    expect(screen.getByText('1 date is skipped: no session is created on it.')).toBeInTheDocument();
    const preview = screen.getByRole('region', { name: 'Preview' });
    const rows = within(preview).getAllByRole('row');
    // Header, then the free date, then the skipped one with its badge instead of an alarm.
    expect(rows).toHaveLength(3);
    expect(within(rows[1] as HTMLElement).getByText('Free')).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).getByText('Skipped: clashes')).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).queryByText(/^Overlaps 10:00/)).toBeNull();
    expect(within(preview).queryByRole('alert')).toBeNull();
    expect(createButton()).toHaveAccessibleName('Create 1 session');
    expect(createButton()).toBeEnabled();
  });

  it('skips one clashing date of a series from the preview, checks again and saves the rest', async () => {
    const next = addDays(date, 7);
    const nextClash = { ...clash, plannedDate: next, date: next };
    const preview = (skipped: boolean) => ({
      preview: true,
      seriesId: null,
      timezone: 'Europe/London',
      planned: [planned([]), planned([nextClash], skipped, next)],
      conflicts: skipped ? [] : [nextClash],
      sessions: [],
    });
    fetchMock
      .mockResolvedValueOnce(answer(preview(false)))
      .mockResolvedValueOnce(answer(preview(true)))
      .mockResolvedValueOnce(answer(preview(false)))
      .mockResolvedValueOnce(answer(preview(true)))
      .mockResolvedValueOnce(answer({ ...preview(true), preview: false }, 201));
    const { onScheduled, user } = renderForm();
    await user.click(screen.getByRole('radio', { name: 'Every week' }));
    await user.click(screen.getByRole('button', { name: 'Check and preview' }));

    const region = screen.getByRole('region', { name: 'Preview' });
    await screen.findByRole('alert', { name: /1 date overlaps an existing session/ });
    expect(createButton()).toBeDisabled();
    // Only the clashing date offers to be skipped, named by its day.
    const skip = within(region).getAllByRole('button', { name: /^Skip this date/ });
    expect(skip).toHaveLength(1);
    await user.click(skip[0] as HTMLElement);

    // One click leaves the date out and checks again: the series is ready without it.
    expect(await screen.findByText('1 session will be created. No overlaps.')).toBeInTheDocument();
    expect(within(region).getByText('Skipped: clashes')).toBeInTheDocument();
    expect(createButton()).toHaveAccessibleName('Create 1 session');
    expect(sentBodies()[1]).toMatchObject({ skipDates: [next], preview: true });

    // Taken back, it clashes again; skipped again, it saves without it.
    await user.click(within(region).getByRole('button', { name: /^Keep this date/ }));
    await screen.findByRole('alert', { name: /1 date overlaps an existing session/ });
    expect(sentBodies()[2]).not.toHaveProperty('skipDates');
    await user.click(within(region).getByRole('button', { name: /^Skip this date/ }));
    await screen.findByText('1 session will be created. No overlaps.');
    await user.click(createButton());
    await vi.waitFor(() => expect(onScheduled).toHaveBeenCalledTimes(1));
    expect(sentBodies()[4]).toMatchObject({ skipDates: [next], preview: false });
  });

  it('proposes the service type duration as slot length and counts the slots', async () => {
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Add a service' }));
    await user.click(screen.getByLabelText(/^Service \*?/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Consultation' }));
    expect(screen.getByRole('textbox', { name: /Slot length/ })).toHaveValue('15');
    expect(screen.getByText('12 slots of 15 min, capacity 1 per slot.')).toBeInTheDocument();
  });

  it("shows the server's refusal of a dry run", async () => {
    fetchMock.mockResolvedValueOnce(
      answer({ code: 'forbidden', message: 'Only owners and admins schedule sessions.' }, 403),
    );
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Check and preview' }));
    const alert = await screen.findByRole('alert', { name: 'The schedule could not be checked' });
    expect(alert).toHaveTextContent('Only owners and admins schedule sessions.');
    expect(createButton()).toBeDisabled();
  });
});
