import { languageCodes } from '@upnext/contract/languages';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { createTranslate, type Texts } from './translate.ts';

const files = import.meta.glob<Texts>(
  [
    '../locales/*/{common,display,marketing,visit,entities,auth}.json',
    '../locales/*/marketing/*.json',
  ],
  { import: 'default', eager: true },
);
/** A namespace as the app loads it: with its parts (`locale-files.ts`). */
const texts = (language: string, namespace: string): Texts =>
  Object.assign(
    {},
    ...Object.entries(files)
      .filter(([path]) => path.startsWith(`../locales/${language}/${namespace}`))
      .map(([, file]) => file),
  );

/**
 * Every key of `texts`, plural forms as their base key (`waitingCount_one` is `waitingCount`),
 * and every group or list of texts (which a page may ask for whole, `returnObjects`).
 */
function keys(node: Texts, prefix = ''): string[] {
  return Object.entries(node).flatMap(([name, value]) =>
    typeof value === 'object' && value !== null
      ? [`${prefix}${name}`, ...keys(value as Texts, `${prefix}${name}.`)]
      : [`${prefix}${name.replace(/_(zero|one|two|few|many|other)$/, '')}`],
  );
}

const values = { counter: 'Counter 2', number: 'A 0 1 7', code: 'HARBOUR', name: 'GP', n: 3 };

/** The boards' namespaces, and those of the public pages' light start (`light/i18n.ts`). */
const served = ['display', 'common', 'marketing', 'visit', 'entities', 'auth'];

describe('the small translator', () => {
  it.each(languageCodes)(
    'answers as i18next does for every text it serves in %s',
    async (language) => {
      const namespaces = Object.fromEntries(served.map((name) => [name, texts(language, name)]));
      const i18n = i18next.createInstance();
      await i18n.init({
        lng: language,
        resources: { [language]: namespaces },
        defaultNS: 'display',
        fallbackLng: false,
        interpolation: { escapeValue: false },
      });
      const t = createTranslate(language, namespaces, 'display');
      const all = served.flatMap((name) =>
        keys(namespaces[name] ?? {}).map((key) => `${name}:${key}`),
      );
      for (const key of new Set(all)) {
        for (const count of [0, 1, 2, 3, 11, 100]) {
          const options = { ...values, count, page: 'Now serving', id: 'r1', numbers: 'A-1' };
          expect(t(key, options), `${language} ${key} ${count}`).toBe(i18n.t(key, options));
          const whole = { ...options, returnObjects: true };
          expect(t(key, whole), `${language} ${key} whole`).toEqual(i18n.t(key, whole));
        }
      }
    },
  );
});
