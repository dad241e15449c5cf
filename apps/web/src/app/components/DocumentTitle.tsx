import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { pageTitle } from '../page-title.ts';

/** Routes name their title with `handle: { title: '<key in common:titles>' }`. */
export interface RouteHandle {
  title: string;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && 'title' in handle;
}

/** The title key of the deepest route that names one. */
function titleKeyOf(matches: readonly { handle?: unknown }[]): string | undefined {
  return matches
    .map((match) => match.handle)
    .filter(isRouteHandle)
    .at(-1)?.title;
}

/** Keeps document.title in step with the deepest route that names one. */
export function DocumentTitle() {
  const { t } = useTranslation();
  const key = titleKeyOf(useMatches());

  useEffect(() => {
    if (key) document.title = pageTitle(key, (name, values) => t(name, values ?? {}));
  }, [key, t]);

  return null;
}
