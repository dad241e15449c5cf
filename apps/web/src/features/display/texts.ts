import { createContext, useContext } from 'react';
import type { Translate } from '../../lib/translate.ts';

/**
 * The boards' texts (the `display` namespace; `common:` for the shell's), given by whoever
 * renders a board: the light wall-screen entry (`display.tsx`) from the locale files directly,
 * the app's routes (`app/routes/DisplayPage.tsx`) from i18next. The boards themselves need
 * neither i18next nor its React binding.
 */
export const DisplayTextsContext = createContext<Translate | null>(null);

/** react-i18next's `useTranslation('display')`, for the boards, from `DisplayTextsContext`. */
export function useTranslation(_namespace: 'display'): { t: Translate } {
  const t = useContext(DisplayTextsContext);
  if (!t) throw new Error('A board renders inside a DisplayTextsContext provider');
  return { t };
}
