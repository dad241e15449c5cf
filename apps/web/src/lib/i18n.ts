import { type Language, languages } from '@upnext/contract/languages';
import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import common from '../locales/en/common.json';
import { rememberLanguage, setCurrentLanguage, startLanguage } from './language.ts';

/**
 * The texts, one namespace per feature in locales/<language>/*.json (English is the source;
 * `locales.test.ts` fails on a key another language lacks). English `common` (the shell's)
 * comes with the app; every other namespace, and another language's `common`, is a chunk of its
 * own, loaded with the page or dialog that shows it (`withNamespaces`), so a public page does not
 * download the admin area's texts nor another language's. A namespace too big for one page keeps
 * each page's texts apart, in locales/<language>/<namespace>/<part>.json (`{ "<part>": {...} }`),
 * added to it by the page that asks for `<namespace>/<part>`.
 */
const namespaceTexts = import.meta.glob<ResourceKey>(
  ['../locales/*/*.json', '!../locales/en/common.json'],
  { import: 'default' },
);

const partTexts = import.meta.glob<ResourceKey>('../locales/*/*/*.json', { import: 'default' });

/** The `<namespace>/<part>`s some page has asked for: a language switch brings them too. */
const askedParts = new Set<string>();

function loadPart(language: string, part: string): Promise<ResourceKey> {
  const load = partTexts[`../locales/${language}/${part}.json`];
  return load ? load() : Promise.reject(new Error(`No texts for ${language}/${part}`));
}

const backend: BackendModule = {
  type: 'backend',
  init: () => {},
  read(language, namespace, callback) {
    const load =
      language === 'en' && namespace === 'common'
        ? async () => common
        : namespaceTexts[`../locales/${language}/${namespace}.json`];
    if (!load) {
      callback(new Error(`No texts for ${language}/${namespace}`), false);
      return;
    }
    const parts = [...askedParts].filter((part) => part.startsWith(`${namespace}/`));
    Promise.all([load(), ...parts.map((part) => loadPart(language, part))]).then(
      ([whole, ...pieces]) => callback(null, Object.assign({}, whole, ...pieces)),
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
  const parts = namespaces.filter((name) => name.includes('/'));
  const wholes = [...new Set(namespaces.map((name) => name.split('/')[0] ?? name))];
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
