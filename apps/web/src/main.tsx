// Mantine's base; each component's own styles come with it (mantine-css.ts), page by page.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import './app/direction.css';
import './app/prerendered.css';
import { StrictMode } from 'react';
import { App, createAppRouter } from './app/App.tsx';
import { prerenderedStart } from './app/prerendered-start.ts';
import { initErrorReporting } from './lib/error-reporter.ts';
import { i18nReady } from './lib/i18n.ts';

// Once the page has loaded, so the first paint never waits for it; errors go to the console
// until Sentry is ready.
window.addEventListener('load', () => void initErrorReporting(), { once: true });

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const start = prerenderedStart(container);

// Once the start language's texts are here (at once for English): never a flash of English.
void i18nReady.then(async () => {
  const hydrate = start.hydrates();
  const router = await createAppRouter(hydrate);
  start.render(hydrate, (onLive) => (
    <StrictMode>
      <App router={router} onLive={onLive} />
    </StrictMode>
  ));
});
