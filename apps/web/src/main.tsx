// Mantine's base; each component's own styles come with it (mantine-css.ts), page by page.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import './app/direction.css';
import './app/prerendered.css';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, createAppRouter } from './app/App.tsx';
import { getAuthStatus } from './lib/auth-session.ts';
import { initErrorReporting } from './lib/error-reporter.ts';
import { i18nReady } from './lib/i18n.ts';
import { currentLanguage } from './lib/language.ts';
import { keepPrerenderedInput } from './lib/prerendered-input.ts';

// Once the page has loaded, so the first paint never waits for it; errors go to the console
// until Sentry is ready.
window.addEventListener('load', () => void initErrorReporting(), { once: true });

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
/** The language of the page's markup when the build prerendered it (`prerender.ts`). */
const prerendered = container.dataset.prerendered;
const keptInput = prerendered ? keepPrerenderedInput(container) : undefined;

// Once the start language's texts are here (at once for English): never a flash of English.
void i18nReady.then(async () => {
  // The markup is a signed-out English visitor's: in another language, or with a session to
  // restore (bootAuth: the first render shows auth loading), the page is rendered afresh.
  const hydrate = prerendered === currentLanguage() && getAuthStatus() === 'signed_out';
  const router = await createAppRouter(hydrate);
  // Once the page is live (hydrated or rendered anew), it takes clicks (prerendered.css), and
  // what was typed into its markup meanwhile is entered again.
  const live = () => {
    container.removeAttribute('data-prerendered');
    keptInput?.enter();
  };
  const app = (
    <StrictMode>
      <App router={router} onLive={live} />
    </StrictMode>
  );
  // As a transition, the first render works in slices and lets the browser in between them
  // (no long task on a slow phone's main thread).
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
