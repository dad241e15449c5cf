import dayjs from 'dayjs';
import { currentLanguage } from '../../lib/language.ts';

/** Today's date, `YYYY-MM-DD`, in `timeZone` (a company's) or else the browser's zone. */
export function todayLocal(timeZone?: string): string {
  if (!timeZone) return dayjs().format('YYYY-MM-DD');
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
}

export function addDays(date: string, days: number): string {
  return dayjs(date).add(days, 'day').format('YYYY-MM-DD');
}

/** The Monday of a date's week (ISO weeks run Monday to Sunday). */
export function weekStart(date: string): string {
  return addDays(date, -((dayjs(date).day() + 6) % 7));
}

/** "Mon 30 Mar" (or "Mon 30 Mar 2026" with the year) for a date-only value, no zone shift. */
export function formatDay(
  date: string,
  locale: string = currentLanguage(),
  { year = false } = {},
): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    ...(year ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** "09:30" from a local time `HH:MM[:SS]`. */
export function shortTime(time: string): string {
  return time.slice(0, 5);
}
