import dayjs from 'dayjs';

/** Today's date in the browser's zone, `YYYY-MM-DD`. */
export function todayLocal(): string {
  return dayjs().format('YYYY-MM-DD');
}

export function addDays(date: string, days: number): string {
  return dayjs(date).add(days, 'day').format('YYYY-MM-DD');
}

/** "Mon 30 Mar" for a date-only value (no zone shift). */
export function formatDay(date: string, locale?: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** "Mon 30 Mar, 09:30" for an instant, in the browser's zone. */
export function formatInstant(iso: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));
}

/** "09:30" from a local time `HH:MM[:SS]`. */
export function shortTime(time: string): string {
  return time.slice(0, 5);
}

export function formatPrice(minor: number, currency: string, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minor / 100);
}
