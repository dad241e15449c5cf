import common from '../locales/en/common.json';
import type { Texts } from './translate.ts';

/**
 * Where the texts are, for the app's i18next (`i18n.ts`) and the public pages' light start
 * (`light/i18n.ts`) alike: one namespace per feature in locales/<language>/<namespace>.json,
 * English `common` in the start itself, every other file a chunk of its own. A namespace too big
 * for one page keeps each page's texts apart, in locales/<language>/<namespace>/<part>.json
 * (`{ "<part>": {...} }`), added to the namespace for the page that asks for `<namespace>/<part>`.
 */
const namespaceTexts = import.meta.glob<Texts>(
  ['../locales/*/*.json', '!../locales/en/common.json'],
  { import: 'default' },
);

const partTexts = import.meta.glob<Texts>('../locales/*/*/*.json', { import: 'default' });

export function loadPart(language: string, part: string): Promise<Texts> {
  const load = partTexts[`../locales/${language}/${part}.json`];
  return load ? load() : Promise.reject(new Error(`No texts for ${language}/${part}`));
}

/** A namespace with those of `parts` (`<namespace>/<part>`) that belong to it. */
export async function loadNamespace(
  language: string,
  namespace: string,
  parts: Iterable<string>,
): Promise<Texts> {
  const load =
    language === 'en' && namespace === 'common'
      ? async () => common
      : namespaceTexts[`../locales/${language}/${namespace}.json`];
  if (!load) throw new Error(`No texts for ${language}/${namespace}`);
  const own = [...parts].filter((part) => part.startsWith(`${namespace}/`));
  const [whole, ...pieces] = await Promise.all([
    load(),
    ...own.map((part) => loadPart(language, part)),
  ]);
  return Object.assign({}, whole, ...pieces);
}

/** What a page asks for (`withNamespaces`): whole namespaces, and parts of namespaces. */
export function splitNamespaces(namespaces: readonly string[]) {
  return {
    wholes: [...new Set(namespaces.map((name) => name.split('/')[0] ?? name))],
    parts: namespaces.filter((name) => name.includes('/')),
  };
}

export { common as englishCommon };
