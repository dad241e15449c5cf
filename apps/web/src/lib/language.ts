import {
  isLanguage,
  type Language,
  languageCookie,
  languages,
  pickLanguage,
} from '@upnext/contract/languages';

/**
 * The page's language without the text library: how it is chosen at the start, remembered and
 * marked on the document, and which one is current. `i18n.ts` (the app's texts, on i18next)
 * and the wall-screen boards' light entry (`display.tsx`) both start from here, and the API
 * client and the formatters read the current language here, so a page that needs neither
 * i18next nor its texts does not load them.
 */
/** Where the choice is kept on this browser: under the cookie's own name. */
const storageKey = languageCookie;

/** The choice for the server too, which picks the page it sends by it (`spa.ts`). */
function tellServer(language: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: synchronous, and in every browser (cookieStore is not)
  document.cookie = `${languageCookie}=${language}; path=/; max-age=31536000; samesite=lax`;
}

function storedLanguage(): string | null {
  try {
    const stored = localStorage.getItem(storageKey);
    // A choice made before the cookie existed reaches the server from the next page on.
    if (stored) tellServer(stored);
    return stored;
  } catch {
    return null; // Storage refused (private mode, a sandboxed frame): the browser decides.
  }
}

/** Remembers the visitor's choice on this browser (the switcher). */
export function rememberLanguage(language: Language) {
  try {
    localStorage.setItem(storageKey, language);
  } catch {
    // Not remembered; the page still switches.
  }
  tellServer(language);
}

/**
 * A `?lang=` (a wall screen's board), else the visitor's choice, else the browser's languages;
 * English when prerendering the public pages at build time (`prerender.ts`), which has no window.
 */
export function startLanguage(): Language {
  if (typeof window === 'undefined') return 'en';
  const query = new URLSearchParams(window.location.search).get('lang');
  return pickLanguage([query, storedLanguage(), ...(navigator.languages ?? [navigator.language])]);
}

let current: Language = 'en';

/** The page is now in `language`: `<html lang dir>` follow (Mantine's DirectionProvider follows `dir`). */
export function setCurrentLanguage(language: string) {
  current = isLanguage(language) ? language : 'en';
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  root.lang = language;
  root.dir = isLanguage(language) ? languages[language].dir : 'ltr';
}

/** The current language, one of ours (for Intl formatters and the API's Accept-Language). */
export function currentLanguage(): Language {
  return current;
}
