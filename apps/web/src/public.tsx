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
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { isPublicPath, publicPages } from './app/public-pages.ts';
import { bootAuth } from './lib/auth-boot.ts';
import { getAuthStatus } from './lib/auth-session.ts';
import { initErrorReporting } from './lib/error-reporter.ts';
import { currentLanguage } from './lib/language.ts';
import { keepPrerenderedInput } from './lib/prerendered-input.ts';
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
const prerendered = container.dataset.prerendered;
const keptInput = prerendered ? keepPrerenderedInput(container) : undefined;

// The page's code and texts, and `common` in the start language: never a flash of English.
void Promise.all([publicPages[path].load(), i18nReady]).then(([{ Component }]) => {
  // As main.tsx: the markup is a signed-out English visitor's; anyone else gets a fresh render.
  const hydrate = prerendered === currentLanguage() && getAuthStatus() === 'signed_out';
  const live = () => {
    container.removeAttribute('data-prerendered');
    keptInput?.enter();
  };
  const { pathname, search, hash } = window.location;
  const app = (
    <StrictMode>
      <PublicPage
        path={path}
        Page={Component}
        location={{ pathname, search, hash }}
        onLive={live}
      />
    </StrictMode>
  );
  startTransition(() => {
    if (hydrate) {
      keptInput?.stopListening();
      hydrateRoot(container, app);
    } else {
      container.replaceChildren();
      createRoot(container).render(app);
    }
  });
});
