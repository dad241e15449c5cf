import type { Language } from '@upnext/contract/languages';
import {
  currentLanguage,
  rememberLanguage,
  setCurrentLanguage,
  startLanguage,
} from '../lib/language.ts';
import { loadNamespace, splitNamespaces } from '../lib/locale-files.ts';
import { createTranslate, type Texts } from '../lib/translate.ts';

/**
 * `lib/i18n.ts` for the public pages' light start (`public.tsx`; the build puts this module in its
 * place, `vite.public.config.ts`): the same files and the same promises (`withNamespaces`,
 * `chooseLanguage`, `i18nReady`) without i18next. The texts a page has asked for, in the current
 * language, are read by `react-i18next.ts`'s `useTranslation` through the small translator.
 */
export interface LoadedTexts {
  language: string;
  namespaces: Readonly<Record<string, Texts>>;
}

let loaded: LoadedTexts = { language: startLanguage(), namespaces: {} };
const askedParts = new Set<string>();
const listeners = new Set<() => void>();

function publish(next: LoadedTexts) {
  loaded = next;
  setCurrentLanguage(next.language);
  for (const listener of listeners) listener();
}

export function subscribeTexts(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function loadedTexts(): LoadedTexts {
  return loaded;
}

function hasParts(texts: Texts | undefined, namespace: string): boolean {
  return [...askedParts]
    .filter((part) => part.startsWith(`${namespace}/`))
    .every((part) => texts?.[part.slice(namespace.length + 1)] !== undefined);
}

/** The namespaces in `language`, with every part asked for so far. */
async function textsOf(language: string, namespaces: readonly string[]) {
  const texts = await Promise.all(
    namespaces.map((namespace) => loadNamespace(language, namespace, askedParts)),
  );
  return Object.fromEntries(namespaces.map((namespace, index) => [namespace, texts[index] ?? {}]));
}

async function loadTexts(wholes: readonly string[]) {
  const { language, namespaces } = loaded;
  const missing = wholes.filter((name) => !namespaces[name] || !hasParts(namespaces[name], name));
  if (missing.length === 0) return;
  const texts = await textsOf(language, missing);
  // The language may have changed meanwhile: the switch loaded these namespaces too.
  if (loaded.language === language) {
    publish({ language, namespaces: { ...loaded.namespaces, ...texts } });
  }
}

export const i18nReady: Promise<unknown> = loadTexts(['common']);

/** As `lib/i18n.ts`'s: the visitor's choice, remembered, and the open page in it at once. */
export async function chooseLanguage(language: Language): Promise<void> {
  rememberLanguage(language);
  publish({ language, namespaces: await textsOf(language, Object.keys(loaded.namespaces)) });
}

/** As `lib/i18n.ts`'s: `load` renders only once its texts are here. */
export function withNamespaces<T>(load: () => Promise<T>, ...namespaces: string[]) {
  const { wholes, parts } = splitNamespaces(namespaces);
  return async (): Promise<T> => {
    for (const part of parts) askedParts.add(part);
    const [module] = await Promise.all([load(), loadTexts(wholes)]);
    return module;
  };
}

/** As `lib/i18n.ts`'s `i18n`, for the modules that word a text outside a component. */
export const i18n = {
  get language() {
    return loaded.language;
  },
  t: (key: string, values?: Readonly<Record<string, unknown>>) =>
    createTranslate(loaded.language, loaded.namespaces, 'common')(key, values),
};

export { currentLanguage };
