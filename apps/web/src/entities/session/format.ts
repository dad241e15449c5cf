import dayjs from 'dayjs';
import { currentLanguage } from '../../lib/i18n.ts';

/** Today's date in the browser's zone, `YYYY-MM-DD`. */
export function todayLocal(): string {
  return dayjs().format('YYYY-MM-DD');
}

export function addDays(date: string, days: number): string {
  return dayjs(date).add(days, 'day').format('YYYY-MM-DD');
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
