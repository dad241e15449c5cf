import { type ComponentType, useEffect } from 'react';
import { IncomingCalls } from '../app/components/IncomingCalls.tsx';
import { NotificationsOnDemand } from '../app/components/NotificationsOnDemand.tsx';
import { SkipLink } from '../app/components/SkipLink.tsx';
import { PublicLayout } from '../app/layouts/PublicLayout.tsx';
import { pageTitle } from '../app/page-title.ts';
import type { PublicPath } from '../app/public-pages.ts';
import { publicPages } from '../app/public-pages.ts';
import { ThemeProviders } from '../app/ThemeProviders.tsx';
import { useTranslation } from './react-i18next.ts';
import { LightRouter } from './react-router.tsx';

interface PublicPageProps {
  path: PublicPath;
  Page: ComponentType;
  location: { pathname: string; search: string; hash: string };
  /** Once the first render is on screen (a prerendered page then takes clicks). */
  onLive?: () => void;
}

/** Follows the language: the prerendered page's title is English. */
function Title({ path }: { path: PublicPath }) {
  const { t } = useTranslation();
  const title = pageTitle(publicPages[path].title, t);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}

/**
 * A public page in its light start (`public.tsx`, and the build's prerender): the app's skip
 * link, layout (header, footer) and page, without the app's router, i18next, query cache or
 * realtime connection (a join link's flow, and a signed-in user's incoming calls, bring the last
 * two when they load); the same tree the app's `RootLayout` and `PublicLayout` show.
 */
export function PublicPage({ path, Page, location, onLive }: PublicPageProps) {
  useEffect(() => onLive?.(), [onLive]);
  return (
    <ThemeProviders>
      <NotificationsOnDemand />
      <LightRouter location={location} outlet={<Page />}>
        <SkipLink />
        <Title path={path} />
        <PublicLayout />
        <IncomingCalls connect />
      </LightRouter>
    </ThemeProviders>
  );
}
