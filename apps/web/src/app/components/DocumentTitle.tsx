import type { TFunction } from 'i18next';
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

/** The title key of the deepest route that names one. */
export function titleKeyOf(matches: readonly { handle?: unknown }[]): string | undefined {
  return matches
    .map((match) => match.handle)
    .filter(isRouteHandle)
    .at(-1)?.title;
}

/** The home title already carries the brand; every other page gets "<page> · UpNext". */
export function pageTitle(key: string, t: TFunction): string {
  return key === 'home' ? t('titles.home') : t('titles.template', { page: t(`titles.${key}`) });
}

/** Keeps document.title in step with the deepest route that names one. */
export function DocumentTitle() {
  const { t } = useTranslation();
  const key = titleKeyOf(useMatches());

  useEffect(() => {
    if (key) document.title = pageTitle(key, t);
  }, [key, t]);

  return null;
}
