import { i18n } from '../../lib/i18n.ts';

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

// Times of day need no texts: apart (time.ts), so a page without i18next can show them.
export { formatInstant, formatTime } from './time.ts';
