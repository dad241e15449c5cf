import { currentLanguage } from '../../lib/language.ts';

/** A time of day (a token's call, a slot) in the browser's zone and the page's language. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleTimeString(currentLanguage(), {
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** "Mon 30 Mar, 09:30" for an instant (a booking's slot), in the browser's zone. */
export function formatInstant(iso: string, locale: string = currentLanguage()): string {
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));
}
