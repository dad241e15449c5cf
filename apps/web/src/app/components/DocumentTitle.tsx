import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';

/** Routes name their title with `handle: { title: '<key in common:titles>' }`. */
export interface RouteHandle {
  title: string;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && 'title' in handle;
}

/** Keeps document.title in step with the deepest route that names one. */
export function DocumentTitle() {
  const { t } = useTranslation();
  const matches = useMatches();
  const key = matches
    .map((match) => match.handle)
    .filter(isRouteHandle)
    .at(-1)?.title;

  useEffect(() => {
    if (!key) return;
    // The home title already carries the brand; every other page gets "<page> · UpNext".
    document.title =
      key === 'home' ? t('titles.home') : t('titles.template', { page: t(`titles.${key}`) });
  }, [key, t]);

  return null;
}
