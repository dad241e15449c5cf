import i18n, { type Resource, type ResourceKey, type ResourceLanguage } from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * Every namespace in locales/en/*.json, bundled: the texts are small and a page must never
 * flash untranslated keys. `common` holds the shell's texts, `marketing` the public pages'.
 */
const files = import.meta.glob<ResourceKey>('../locales/en/*.json', {
  eager: true,
  import: 'default',
});

const en: ResourceLanguage = {};
for (const [path, namespace] of Object.entries(files)) {
  const name = /([\w-]+)\.json$/.exec(path)?.[1];
  if (name) en[name] = namespace;
}
const resources: Resource = { en };

void i18n.use(initReactI18next).init({
  resources,
  lng: 'en',
  fallbackLng: 'en',
  ns: Object.keys(en),
  defaultNS: 'common',
  // Resources are in memory: initialise synchronously so the first render is translated.
  initAsync: false,
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
});

export { i18n };
