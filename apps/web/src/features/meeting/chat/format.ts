import { i18n } from '../../../lib/i18n.ts';

/** A file size as people read it: "512 B", "16.4 KB", "100 MB" (binary units, one decimal). */
export function formatFileSize(bytes: number): string {
  const number = (value: number) =>
    new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(value);
  if (bytes < 1024) return i18n.t('chat:size.bytes', { value: number(bytes) });
  if (bytes < 1024 * 1024) return i18n.t('chat:size.kilobytes', { value: number(bytes / 1024) });
  return i18n.t('chat:size.megabytes', { value: number(bytes / (1024 * 1024)) });
}
