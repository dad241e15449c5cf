import dayjs from 'dayjs';

/** Today's date in the browser's zone, `YYYY-MM-DD`. */
export function todayLocal(): string {
  return dayjs().format('YYYY-MM-DD');
}

/** "Mon 30 Mar 2026" in the user's language (a date-only value, no zone shift). */
export function formatDay(date: string, locale?: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, d)));
}
