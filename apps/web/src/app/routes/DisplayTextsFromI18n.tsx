import { type ReactNode, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { DisplayTextsContext } from '../../features/display/texts.ts';
import type { Translate } from '../../lib/translate.ts';

/** The boards' texts from the app's i18next, when the app's router shows a board. */
export function DisplayTextsFromI18n({ children }: { children: ReactNode }) {
  const { t } = useTranslation('display');
  const translate = useCallback<Translate>((key, values) => t(key, values ?? {}), [t]);
  return <DisplayTextsContext value={translate}>{children}</DisplayTextsContext>;
}
