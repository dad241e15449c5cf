import { useMemo, useSyncExternalStore } from 'react';
import { createTranslate } from '../lib/translate.ts';
import { loadedTexts, subscribeTexts } from './i18n.ts';

/**
 * react-i18next's `useTranslation` for the public pages' light start (the build puts this module
 * in its place, `vite.public.config.ts`): the same components, their texts from `./i18n.ts`
 * through the small translator; a language switch renders them again.
 */
export function useTranslation(namespace = 'common') {
  const { language, namespaces } = useSyncExternalStore(subscribeTexts, loadedTexts, loadedTexts);
  return useMemo(
    () => ({ t: createTranslate(language, namespaces, namespace), i18n: { language } }),
    [language, namespaces, namespace],
  );
}
