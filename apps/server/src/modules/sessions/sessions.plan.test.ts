import { describe, expect, it } from 'vitest';
import { localTimeOf, occurrenceDates, slotWindows } from './sessions.plan.ts';

describe('occurrenceDates', () => {
  it('is the date alone for a one-off session', () => {
    expect(occurrenceDates('2026-03-23', undefined)).toEqual(['2026-03-23']);
    expect(occurrenceDates('2026-03-23', { kind: 'once' })).toEqual(['2026-03-23']);
  });

  it('lists the chosen ISO weekdays up to and including "until", Sunday being 7', () => {
    const dates = occurrenceDates('2026-03-26', {
      kind: 'weekly',
      weekdays: [7, 1],
      until: '2026-04-06',
    });
    expect(dates).toEqual(['2026-03-29', '2026-03-30', '2026-04-05', '2026-04-06']);
  });

  it('is empty when no chosen weekday falls in the range', () => {
    expect(
      occurrenceDates('2026-07-06', { kind: 'weekly', weekdays: [6], until: '2026-07-08' }),
    ).toEqual([]);
  });
});

describe('slotWindows', () => {
  const at = (iso: string) => new Date(iso);

  it('cuts whole slots and drops a last partial one', () => {
    const windows = slotWindows(at('2026-03-20T09:00:00Z'), at('2026-03-20T09:50:00Z'), 15);
    expect(
      windows.map((w) => [w.slotNo, w.startsAt.toISOString(), w.endsAt.toISOString()]),
    ).toEqual([
      [1, '2026-03-20T09:00:00.000Z', '2026-03-20T09:15:00.000Z'],
      [2, '2026-03-20T09:15:00.000Z', '2026-03-20T09:30:00.000Z'],
      [3, '2026-03-20T09:30:00.000Z', '2026-03-20T09:45:00.000Z'],
    ]);
  });

  it('has no slot when the slot is longer than the window', () => {
    expect(slotWindows(at('2026-03-20T09:00:00Z'), at('2026-03-20T09:10:00Z'), 15)).toEqual([]);
  });

  it('counts real minutes across a daylight-saving change (00:00-03:00 London on 29 March is 2 hours)', () => {
    const windows = slotWindows(at('2026-03-29T00:00:00Z'), at('2026-03-29T02:00:00Z'), 60);
    expect(windows).toHaveLength(2);
    expect(windows.map((w) => localTimeOf(w.startsAt, 'Europe/London'))).toEqual([
      '00:00',
      '02:00',
    ]);
  });
});
