import type { Recurrence } from '@upnext/contract/sessions';
import { addDays, dateTimeFormat, weekday } from '../../lib/dates.ts';

/**
 * The dates a schedule covers: the date itself once, or every date from `date` to `until`
 * (inclusive) whose ISO weekday (1 = Monday ... 7 = Sunday) is listed.
 */
export function occurrenceDates(date: string, recurrence: Recurrence | undefined): string[] {
  if (!recurrence || recurrence.kind === 'once') return [date];
  const wanted = new Set(recurrence.weekdays);
  const dates: string[] = [];
  for (let day = date; day <= recurrence.until; day = addDays(day, 1)) {
    const iso = weekday(day) === 0 ? 7 : weekday(day);
    if (wanted.has(iso)) dates.push(day);
  }
  return dates;
}

/**
 * Slots 1..n of `slotMinutes` each, from the session's start. Only whole slots fit: when the
 * window is not a multiple of the slot length, the last partial slot is dropped (a 50-minute
 * window with 15-minute slots has 3 slots, the last 5 minutes have none). Instants, so a
 * window that spans a daylight-saving change is cut by real elapsed minutes.
 */
export function slotWindows(
  startsAt: Date,
  endsAt: Date,
  slotMinutes: number,
): Array<{ slotNo: number; startsAt: Date; endsAt: Date }> {
  const slotMs = slotMinutes * 60_000;
  const count = Math.max(0, Math.floor((endsAt.getTime() - startsAt.getTime()) / slotMs));
  return Array.from({ length: count }, (_, index) => ({
    slotNo: index + 1,
    startsAt: new Date(startsAt.getTime() + index * slotMs),
    endsAt: new Date(startsAt.getTime() + (index + 1) * slotMs),
  }));
}

/** `HH:MM` of an instant on the wall clock of `timeZone`. */
export function localTimeOf(instant: Date, timeZone: string): string {
  return dateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(instant);
}

/** `HH:MM:SS` from the database as the contract's `HH:MM`. */
export const hhmm = (time: string) => time.slice(0, 5);
