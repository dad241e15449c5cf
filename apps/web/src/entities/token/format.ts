import { currentLanguage, i18n } from '../../lib/i18n.ts';

/** A wait or service time: "45 s", "4 min 30 s", "5 min", "1 h 5 min"; a dash when unknown. */
export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const total = Math.round(seconds);
  if (total < 60) return i18n.t('entities:duration.seconds', { s: total });
  const minutes = Math.floor(total / 60);
  if (minutes < 60 && total % 60 === 0) {
    return i18n.t('entities:duration.wholeMinutes', { m: minutes });
  }
  if (minutes < 60) return i18n.t('entities:duration.minutes', { m: minutes, s: total % 60 });
  return i18n.t('entities:duration.hours', { h: Math.floor(minutes / 60), m: minutes % 60 });
}

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
