import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import common from '../locales/en/common.json';

/**
 * The texts, one namespace per feature in locales/en/*.json. `common` (the shell's) comes with
 * the app; every other namespace is a chunk of its own, loaded with the page or dialog that
 * shows it (`withNamespaces`), so a public page does not download the admin area's texts. A
 * namespace too big for one page keeps each page's texts apart, in locales/en/<namespace>/
 * <part>.json (`{ "<part>": {...} }`), added to it by the page that asks for `<namespace>/<part>`.
 */
const lazyNamespaces = import.meta.glob<ResourceKey>(
  ['../locales/en/*.json', '!../locales/en/common.json'],
  { import: 'default' },
);

const namespaceParts = import.meta.glob<ResourceKey>('../locales/en/*/*.json', {
  import: 'default',
});

const backend: BackendModule = {
  type: 'backend',
  init: () => {},
  read(language, namespace, callback) {
    const load = lazyNamespaces[`../locales/${language}/${namespace}.json`];
    if (!load) {
      callback(new Error(`No texts for ${language}/${namespace}`), false);
      return;
    }
    load().then(
      (texts) => callback(null, texts),
      (error: unknown) =>
        callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

void i18n
  .use(backend)
  .use(initReactI18next)
  .init({
    resources: { en: { common } },
    // `common` is here already; the backend brings the others when asked.
    partialBundledLanguages: true,
    lng: 'en',
    fallbackLng: 'en',
    ns: ['common'],
    defaultNS: 'common',
    // `common` is in memory: initialise synchronously so the first render is translated.
    initAsync: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });

/**
 * `load` (a lazy page or component) together with the namespaces it shows: it renders only
 * once its texts are here, never with untranslated keys.
 */
export function withNamespaces<T>(load: () => Promise<T>, ...namespaces: string[]) {
  const wholes = namespaces.filter((name) => !name.includes('/'));
  const parts = namespaces.filter((name) => name.includes('/'));
  return async (): Promise<T> => {
    const [module, , texts] = await Promise.all([
      load(),
      i18n.loadNamespaces(wholes),
      Promise.all(parts.map((part) => namespaceParts[`../locales/en/${part}.json`]?.())),
    ]);
    // After the namespace itself: a part added first would make it look loaded already.
    parts.forEach((part, index) => {
      i18n.addResourceBundle('en', part.split('/')[0] ?? part, texts[index], true, false);
    });
    return module;
  };
}

export { i18n };
