import { languageCodes } from '@upnext/contract/languages';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { createTranslate, type Texts } from './translate.ts';

const files = import.meta.glob<Texts>('../locales/*/{common,display}.json', {
  import: 'default',
  eager: true,
});
const texts = (language: string, namespace: string) =>
  files[`../locales/${language}/${namespace}.json`] ?? {};

/** Every key of `texts`, plural forms as their base key (`waitingCount_one` is `waitingCount`). */
function keys(node: Texts, prefix = ''): string[] {
  return Object.entries(node).flatMap(([name, value]) =>
    typeof value === 'object' && value !== null
      ? keys(value as Texts, `${prefix}${name}.`)
      : [`${prefix}${name.replace(/_(zero|one|two|few|many|other)$/, '')}`],
  );
}

const values = { counter: 'Counter 2', number: 'A 0 1 7', code: 'HARBOUR', name: 'GP', n: 3 };

describe('the boards’ translator', () => {
  it.each(languageCodes)('answers as i18next does for every board text in %s', async (language) => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: language,
      resources: {
        [language]: { common: texts(language, 'common'), display: texts(language, 'display') },
      },
      defaultNS: 'display',
      fallbackLng: false,
      interpolation: { escapeValue: false },
    });
    const t = createTranslate(
      language,
      { common: texts(language, 'common'), display: texts(language, 'display') },
      'display',
    );
    const all = [
      ...keys(texts(language, 'display')),
      ...keys(texts(language, 'common')).map((key) => `common:${key}`),
    ];
    for (const key of new Set(all)) {
      for (const count of [0, 1, 2, 3, 11, 100]) {
        const options = { ...values, count, page: 'Now serving', id: 'r1', numbers: 'A-1' };
        expect(t(key, options), `${language} ${key} ${count}`).toBe(i18n.t(key, options));
      }
    }
  });
});
