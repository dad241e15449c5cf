// The light start of the public pages a visitor most often opens first (`/`, `/pricing`, `/join`:
// public.html, which the server sends for them, prerendered for an English visitor). The same
// components as the app's, without its data router, i18next, query cache or realtime connection:
// the build puts small stand-ins in the place of react-router, react-i18next and `lib/i18n.ts`
// (`vite.public.config.ts`). A link out of these pages is a page load, into the app.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import './app/direction.css';
import './app/prerendered.css';
import { StrictMode } from 'react';
import { prerenderedStart } from './app/prerendered-start.ts';
import { isPublicPath, publicPages } from './app/public-pages.ts';
import { bootAuth } from './lib/auth-boot.ts';
import { initErrorReporting } from './lib/error-reporter.ts';
import { i18nReady } from './light/i18n.ts';
import { PublicPage } from './light/PublicPage.tsx';

// As the app's start (main.tsx): a stored session is restored (the header then offers the
// dashboard), and errors are reported once the page has loaded.
bootAuth();
window.addEventListener('load', () => void initErrorReporting(), { once: true });

const container = document.getElementById('root');
if (!container) throw new Error('public.html has no #root element');
const path = window.location.pathname;
if (!isPublicPath(path)) throw new Error(`${path} has no light start`);
const start = prerenderedStart(container);

// The page's code and texts, and `common` in the start language: never a flash of English.
void Promise.all([publicPages[path].load(), i18nReady]).then(([{ Component }]) => {
  const { pathname, search, hash } = window.location;
  start.render(start.hydrates(), (onLive) => (
    <StrictMode>
      <PublicPage
        path={path}
        Page={Component}
        location={{ pathname, search, hash }}
        onLive={onLive}
      />
    </StrictMode>
  ));
});
