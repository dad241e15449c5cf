import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import common from '../locales/en/common.json';

/**
 * The texts, one namespace per feature in locales/en/*.json. `common` (the shell's) comes with
 * the app; every other namespace is a chunk of its own, loaded with the page or dialog that
 * shows it (`withNamespaces`), so a public page does not download the admin area's texts.
 */
const lazyNamespaces = import.meta.glob<ResourceKey>(
  ['../locales/en/*.json', '!../locales/en/common.json'],
  { import: 'default' },
);

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
  return async (): Promise<T> => {
    const [module] = await Promise.all([load(), i18n.loadNamespaces(namespaces)]);
    return module;
  };
}

export { i18n };
