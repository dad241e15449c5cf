// The wall-screen boards' own entry (display.html, sent by the server for `/display/...`): a
// board needs no navigation, no sign-in, no i18next; only React, Mantine, the query cache that
// the STOMP client keeps live, and its texts. The boards are the app's (features/display).
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import './app/direction.css';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { reconnectDelayMs } from '@upnext/contract/realtime-topics';
import { matchBoardPath } from '@upnext/contract/routes';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ThemeProviders } from './app/ThemeProviders.tsx';
import { BoardPage } from './features/display/components/BoardPage.tsx';
import { DisplayTextsContext } from './features/display/texts.ts';
import { initErrorReporting, reportError } from './lib/error-reporter.ts';
import { setCurrentLanguage, startLanguage } from './lib/language.ts';
import { queryDefaults } from './lib/query-defaults.ts';
import { createTranslate, type Texts } from './lib/translate.ts';
import englishCommon from './locales/en/common.json';

// English `common` as the app has it (in the chunk both entries share): a dynamic import of a
// module the app's start imports would load the app's start with it.
const texts = import.meta.glob<Texts>(
  ['./locales/*/{common,display}.json', '!./locales/en/common.json'],
  { import: 'default' },
);

async function loadTexts(language: string, namespace: string): Promise<Texts> {
  if (language === 'en' && namespace === 'common') return englishCommon;
  const load = texts[`./locales/${language}/${namespace}.json`];
  if (!load) throw new Error(`No texts for ${language}/${namespace}`);
  return load();
}

// Every board query shows its failure on the board itself (errorShownInline): reported only.
const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error) => reportError(error, { source: 'api' }) }),
  defaultOptions: { queries: queryDefaults },
});

// As the app does (main.tsx): once the page has loaded, so the first paint never waits for it.
window.addEventListener('load', () => void initErrorReporting(), { once: true });

async function start() {
  const container = document.getElementById('root');
  if (!container) throw new Error('display.html has no #root element');
  const board = matchBoardPath(window.location.pathname);
  if (!board) throw new Error(`${window.location.pathname} is not a board`);
  const language = startLanguage();
  setCurrentLanguage(language);
  const [common, display] = await Promise.all([
    loadTexts(language, 'common'),
    loadTexts(language, 'display'),
  ]);
  const t = createTranslate(language, { common, display }, 'display');
  const page = board.board === 'queue' ? 'displayQueue' : 'display';
  document.title = t('common:titles.template', { page: t(`common:titles.${page}`) });
  createRoot(container).render(
    <StrictMode>
      <ThemeProviders>
        <QueryClientProvider client={queryClient}>
          <DisplayTextsContext value={t}>
            <BoardPage board={board} />
          </DisplayTextsContext>
        </QueryClientProvider>
      </ThemeProviders>
    </StrictMode>,
  );
}

// A wall screen has nobody to press reload: if its texts could not be fetched, it tries again
// after the realtime connection's own delay.
start().catch((error: unknown) => {
  reportError(error, { source: 'board-start' });
  window.setTimeout(() => window.location.reload(), reconnectDelayMs);
});
