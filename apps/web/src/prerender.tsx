import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { pageTitle } from './app/page-title.ts';
import { isPublicPath, publicPages } from './app/public-pages.ts';
import { createTranslate } from './lib/translate.ts';
import { i18nReady, loadedTexts } from './light/i18n.ts';
import { PublicPage } from './light/PublicPage.tsx';

/**
 * The server entry of the build-time prerender (`../prerender.ts`): a public page as a signed-out
 * English visitor first sees it, to be hydrated by its light start (`public.tsx`), whose tree
 * this is.
 */
export async function renderPage(path: string): Promise<{ html: string; title: string }> {
  if (!isPublicPath(path)) throw new Error(`${path} has no light start`);
  const [{ Component }] = await Promise.all([publicPages[path].load(), i18nReady]);
  const html = renderToString(
    <StrictMode>
      <PublicPage
        path={path}
        Page={Component}
        location={{ pathname: path, search: '', hash: '' }}
      />
    </StrictMode>,
  );
  const t = createTranslate('en', loadedTexts().namespaces, 'common');
  // Through React, which escapes it.
  const title = renderToString(<title>{pageTitle(publicPages[path].title, t)}</title>);
  return { html, title };
}
