/**
 * The languages the product speaks (web, emails, SMS, the board): the one list. English is the
 * source of every text and the fallback; `dir` is how a language is written.
 */
export const languageCodes = ['en', 'fr', 'ar'] as const;

export type Language = (typeof languageCodes)[number];

export const languages: Readonly<Record<Language, { name: string; dir: 'ltr' | 'rtl' }>> = {
  en: { name: 'English', dir: 'ltr' },
  fr: { name: 'Français', dir: 'ltr' },
  ar: { name: 'العربية', dir: 'rtl' },
};

export const defaultLanguage: Language = 'en';

/**
 * The cookie that carries a visitor's own choice of language (the web app's switcher) to the
 * server, which then sends a page prerendered in English only to those who start in English.
 */
export const languageCookie = 'upnext.language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languageCodes as readonly string[]).includes(value);
}

/**
 * The first of `wanted` (most preferred first: `navigator.languages`, an Accept-Language
 * header's tags) that we speak, matched on the primary subtag ("fr-CA" is French); else English.
 */
export function pickLanguage(wanted: readonly (string | null | undefined)[]): Language {
  for (const tag of wanted) {
    const primary = tag?.trim().split(/[-_]/)[0]?.toLowerCase();
    if (isLanguage(primary)) return primary;
  }
  return defaultLanguage;
}

/** The tags of an Accept-Language header, most preferred first ("fr-CH, fr;q=0.9, en;q=0.8"). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 32)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}
