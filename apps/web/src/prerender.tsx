import { QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders } from './app/AppProviders.tsx';
import { pageTitle, titleKeyOf } from './app/components/DocumentTitle.tsx';
import { routes } from './app/router.tsx';
import { i18n, i18nReady } from './lib/i18n.ts';

/**
 * The server entry of the build-time prerender (`../prerender.ts`): a public page as a signed-out
 * English visitor first sees it, to be hydrated by `main.tsx`. The tree is `App`'s, with the
 * static router in place of the browser's, so the markup matches the first client render.
 */
export async function renderPage(path: string): Promise<{ html: string; title: string }> {
  await i18nReady;
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(path, 'http://prerender.invalid')));
  if (context instanceof Response) throw new Error(`${path} answers ${context.status}`);
  if (context.errors) throw new Error(`${path} failed: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <StrictMode>
      <AppProviders queryClient={new QueryClient()}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
  const key = titleKeyOf(context.matches.map((match) => match.route));
  // Through React, which escapes it.
  const title = renderToString(
    <title>{key ? pageTitle(key, i18n.t) : i18n.t('titles.home')}</title>,
  );
  return { html, title };
}
