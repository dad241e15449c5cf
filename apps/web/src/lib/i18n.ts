import { type Language, languages } from '@upnext/contract/languages';
import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { rememberLanguage, setCurrentLanguage, startLanguage } from './language.ts';
import {
  englishCommon as common,
  loadNamespace,
  loadPart,
  splitNamespaces,
} from './locale-files.ts';

/**
 * The app's texts on i18next, from the files `locale-files.ts` finds (English is the source;
 * `locales.test.ts` fails on a key another language lacks). A page does not download the admin
 * area's texts nor another language's: each loads what it shows (`withNamespaces`).
 */

/** The `<namespace>/<part>`s some page has asked for: a language switch brings them too. */
const askedParts = new Set<string>();

const backend: BackendModule = {
  type: 'backend',
  init: () => {},
  read(language, namespace, callback) {
    loadNamespace(language, namespace, askedParts).then(
      (texts) => callback(null, texts as ResourceKey),
      (error: unknown) =>
        callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

// The language's other consumers (the API client, the formatters, `<html lang dir>`) follow it.
i18n.on('languageChanged', setCurrentLanguage);

/**
 * Resolves once the start language's `common` is here: `main.tsx` renders after it, so a French
 * or Arabic visitor never sees English first. English is in memory (initialised synchronously).
 */
export const i18nReady = i18n
  .use(backend)
  .use(initReactI18next)
  .init({
    resources: { en: { common } },
    // English `common` is here already; the backend brings the rest when asked.
    partialBundledLanguages: true,
    lng: startLanguage(),
    supportedLngs: Object.keys(languages),
    // Every language has every key (locales.test.ts): no second language to download.
    fallbackLng: false,
    ns: ['common'],
    defaultNS: 'common',
    initAsync: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });

/** The visitor's choice (the switcher): remembered on this browser, applied to the open page. */
export async function chooseLanguage(language: Language): Promise<void> {
  rememberLanguage(language);
  await i18n.changeLanguage(language);
}

export { currentLanguage } from './language.ts';

/**
 * `load` (a lazy page or component) together with the namespaces it shows: it renders only
 * once its texts are here, never with untranslated keys.
 */
export function withNamespaces<T>(load: () => Promise<T>, ...namespaces: string[]) {
  const { wholes, parts } = splitNamespaces(namespaces);
  return async (): Promise<T> => {
    for (const part of parts) askedParts.add(part);
    const [module] = await Promise.all([load(), loadTexts(wholes, parts)]);
    return module;
  };
}

async function loadTexts(wholes: string[], parts: string[]) {
  await i18n.loadNamespaces(wholes);
  // A namespace loaded before this page asked for its part lacks it: add it now, after the
  // namespace itself (a part added first would make the namespace look loaded already).
  const language = i18n.language;
  const missing = parts.filter((part) => {
    const [namespace = '', name = ''] = part.split('/');
    return i18n.getResource(language, namespace, name) === undefined;
  });
  const texts = await Promise.all(missing.map((part) => loadPart(language, part)));
  missing.forEach((part, index) => {
    i18n.addResourceBundle(language, part.split('/')[0] ?? part, texts[index], true, false);
  });
}

export { i18n };
